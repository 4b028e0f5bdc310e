import { chatLabelOperation } from './labels';

/** Remove From Chat on the Messaging Gateway API: Evolution API v1's `handleLabel` with `action: remove`. */
export const { description, execute } = chatLabelOperation(
	'removeFromChat',
	'remove',
	'take the label from',
);
