/**
 * What Send and Wait for Response offers the person (the answers, each a signed link) and how long
 * it waits, read and checked before anything is sent.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { WAIT_INDEFINITELY } from 'n8n-workflow';

import { decimalFrom, fieldError, optionFrom, readOptions, textFrom } from '../../helpers/fields';

export type ResponseType = 'approval' | 'freeText';

const LIMIT_UNITS = { minutes: 60_000, hours: 3_600_000, days: 86_400_000 } as const;

interface Answer {
	label: string;
	url: string;
}

/** The answers the person can give, each with its signed resume URL (n8n checks the signature). */
export function answersOf(
	this: IExecuteFunctions,
	itemIndex: number,
	responseType: ResponseType,
): Answer[] {
	const options = readOptions.call(this, itemIndex);
	const label = (raw: unknown, name: string, fallback: string) =>
		textFrom.call(this, raw, name, itemIndex).trim() || fallback;
	if (responseType === 'freeText') {
		return [
			{
				label: label(options.respondLabel, 'Respond Link Label', 'Answer here'),
				url: this.getSignedResumeUrl(),
			},
		];
	}
	const approval = this.getNodeParameter('approvalOptions.values', itemIndex, {}) as IDataObject;
	const answers = [
		{
			label: label(approval.approveLabel, 'Approve Button Label', '✓ Approve'),
			url: this.getSignedResumeUrl({ approved: 'true' }),
		},
	];
	const approvalType = optionFrom.call(
		this,
		approval.approvalType ?? 'single',
		'Type of Approval',
		itemIndex,
		['single', 'double'],
	);
	if (approvalType === 'double') {
		answers.push({
			label: label(approval.disapproveLabel, 'Decline Button Label', '✗ Decline'),
			url: this.getSignedResumeUrl({ approved: 'false' }),
		});
	}
	return answers;
}

/** When to stop waiting: never, after an interval, or at a date; checked before sending. */
export function waitTillOf(this: IExecuteFunctions, itemIndex: number): Date {
	const options = readOptions.call(this, itemIndex);
	const limit = (options.limitWaitTime as IDataObject | undefined)?.values as
		| IDataObject
		| undefined;
	if (!limit) return WAIT_INDEFINITELY;
	const limitType = optionFrom.call(
		this,
		limit.limitType ?? 'afterTimeInterval',
		'Limit Type',
		itemIndex,
		['afterTimeInterval', 'atSpecifiedTime'],
	);
	if (limitType === 'atSpecifiedTime') {
		const text = textFrom.call(this, limit.maxDateAndTime, 'Max Date and Time', itemIndex).trim();
		const date = new Date(text);
		if (text === '' || Number.isNaN(date.getTime())) {
			throw fieldError.call(
				this,
				itemIndex,
				`Max Date and Time must be a date and time, e.g. 2026-12-24T18:00:00 (got "${text}")`,
			);
		}
		return date;
	}
	const amount = decimalFrom.call(this, limit.resumeAmount ?? 1, 'Amount', itemIndex, {
		min: 0,
		max: 3650,
	});
	const unit = optionFrom.call(this, limit.resumeUnit ?? 'hours', 'Unit', itemIndex, [
		'minutes',
		'hours',
		'days',
	]);
	return new Date(Date.now() + amount * LIMIT_UNITS[unit as keyof typeof LIMIT_UNITS]);
}
