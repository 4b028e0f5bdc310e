import type { AllEntities } from 'n8n-workflow';

type NodeMap = {
	session: 'requestPairingCode' | 'restart' | 'setPresence';
};

export type MessagingGatewayType = AllEntities<NodeMap>;
