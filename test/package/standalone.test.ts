import { filesPointingOutside } from './repository.cts';

describe('the repository', () => {
	it('stands alone: no file points at material outside it', () => {
		expect(filesPointingOutside()).toEqual([]);
	});
});
