// The transport's public face: what the nodes use of it, from the files that hold it.

export { gatewayPath, joinUrl, normalizeBaseUrl } from './url';
export type {
	BodyStyleSetting,
	GatewayName,
	GatewayCredentials,
	GatewayRequestContext,
	RequestBodyStyle,
} from './credentials';
export {
	CREDENTIAL_TYPE,
	DEFAULT_GATEWAY,
	GATEWAY_LABELS,
	gatewayNamed,
	selectedGateway,
} from './credentials';
export { BODY_STYLE_LABELS, gatewayStyledRequest, getRequestBodyStyle } from './body-style';
export { PUBLIC_FILE_LIMITS, REQUEST_LIMITS } from './limits';
export type { GatewayRequestOptions } from './request';
export { gatewayApiRequest } from './request';
export type { DownloadedFile } from './files';
export { fetchPublicFile, gatewayDownloadFile } from './files';
