import type { INodeProperties } from 'n8n-workflow';

export const sessionField: INodeProperties = {
	displayName: 'Session',
	name: 'session',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. default',
	description: 'The session name, also called instance name',
};
