import { chatLabelOperation } from './labels';

/** Add to Chat on the Messaging Gateway API: Evolution API v1's `handleLabel` with `action: add`. */
export const { description, execute } = chatLabelOperation('addToChat', 'add', 'label');
