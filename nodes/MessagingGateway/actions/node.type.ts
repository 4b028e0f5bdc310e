import type { AllEntities } from 'n8n-workflow';

type NodeMap = {
	session: 'requestPairingCode' | 'restart' | 'setPresence';
	message:
		| 'sendText'
		| 'sendLocation'
		| 'sendButtons'
		| 'sendLinkPreview'
		| 'sendPoll'
		| 'react'
		| 'get'
		| 'findStatus'
		| 'downloadMedia';
	chat: 'getMany';
	group: 'get' | 'sendInvite' | 'refresh' | 'leave';
	channel: 'create' | 'search';
	contact: 'get' | 'getMany' | 'getProfilePicture' | 'getBusinessProfile';
	profile: 'get' | 'setPicture' | 'deletePicture';
	webhook: 'set';
};

export type MessagingGatewayType = AllEntities<NodeMap>;
