/**
 * Which device made a message ID (Baileys' getDevice, as Evolution API stores it) and whether a
 * person typed the account's own message, from what each gateway's record says.
 */
import { deviceOfMessageId, typedByPerson } from '../../nodes/shared/message-device';

describe('deviceOfMessageId', () => {
	it.each([
		['3A0123456789ABCDEF01', 'ios'],
		['3EB0C767D26A1D3BB2F1A3', 'web'],
		['A1B2C3D4E5F60718293A4B5C6D7E8F90', 'android'],
		['ABCDEFGHIJKLMNOPQRSTU', 'android'],
		['3F0123456789ABCDEF', 'desktop'],
		['BAE5F0A1B2C3D4E5', 'unknown'],
		['3EB0C767D26A1D3BB2F1', 'unknown'],
	])('%s was made by %s', (id, device) => {
		expect(deviceOfMessageId(id)).toBe(device);
	});
});

describe('typedByPerson', () => {
	it.each([
		{ fromMe: false, id: '3A0123456789ABCDEF01', source: 'app', trustApp: true, person: false },
		{ fromMe: true, id: '3A0123456789ABCDEF01', source: 'api', trustApp: true, person: false },
		{ fromMe: true, id: '3EB0C767D26A1D3BB2F1', source: 'app', trustApp: true, person: true },
		{ fromMe: true, id: '3EB0C767D26A1D3BB2F1', source: 'app', trustApp: false, person: false },
		{ fromMe: true, id: '3A0123456789ABCDEF01', source: 'app', trustApp: false, person: true },
		{ fromMe: true, id: '3EB0C767D26A1D3BB2F1A3', source: 'web', trustApp: true, person: false },
		{
			fromMe: true,
			id: 'A1B2C3D4E5F60718293A4B5C6D7E8F90',
			source: 'android',
			trustApp: true,
			person: true,
		},
		{ fromMe: true, id: '3A0123456789ABCDEF01', source: undefined, trustApp: true, person: true },
		{ fromMe: true, id: 'BAE5F0A1B2C3D4E5', source: undefined, trustApp: true, person: false },
	])(
		'fromMe $fromMe, id $id, source $source (app trusted: $trustApp): a person $person',
		({ fromMe, id, source, trustApp, person }) => {
			expect(typedByPerson(fromMe, id, source, trustApp)).toBe(person);
		},
	);
});
