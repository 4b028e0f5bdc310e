/**
 * Sending, reading and changing messages on WAHA (2026.x, its published OpenAPI): which it offers,
 * and why it has no others. Each reads what the user asked with its operation file's code.
 */
import * as getMessage from '../../actions/message/get.operation';
import * as react from '../../actions/message/react.operation';
import { combineRapidWith } from '../../actions/message/combineRapid.operation';
import { pauseWhilePersonAnswersWith } from '../../actions/message/pauseWhilePersonAnswers.operation';
import type { GatewayOperation } from '../../../shared/gateways';
import { wahaHistory } from './history';
import { wahaMessageActions } from './message-actions';
import { wahaSends } from './sends';

export const wahaMessageOperations: Record<string, GatewayOperation> = {
	// WAHA's own routes and bodies, which the Messaging Gateway API sends already (always as
	// chatId + session on WAHA: see transport/body-style.ts), and answers read as they are.
	'message.react': react.execute,
	'message.get': getMessage.execute,
	'message.combineRapid': combineRapidWith(wahaHistory),
	'message.pauseWhilePersonAnswers': pauseWhilePersonAnswersWith(wahaHistory),
	...wahaSends,
	...wahaMessageActions,
};

export const wahaMessagesNotOffered: Record<string, string> = {
	'message.sendSticker':
		'WAHA has no route to send a sticker: send the image with Send Media (Media Type Image) instead.',
	'message.findStatus':
		"WAHA keeps no status records to search: a message's delivery state (ack, ackName) is in Message → Get's output and in the trigger's message.ack events.",
};
