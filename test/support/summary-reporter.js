// Prints the plain closing line CI reads: "N passed, N failed", after a short account of each
// failure (CI shows the end of a long log: the failures must be there, not only far above).
const FAILURE_LINES = 25;

const plain = (text) => text.replace(/\u001b\[[0-9;]*m/g, '');

function failureAccount(results) {
	const lines = [];
	for (const file of results.testResults) {
		const where = file.testFilePath.replace(`${process.cwd()}/`, '');
		if (file.testExecError) {
			lines.push(`✕ ${where}: ${plain(file.testExecError.message).split('\n')[0]}`);
		}
		for (const test of file.testResults.filter((each) => each.status === 'failed')) {
			lines.push(`✕ ${where} › ${test.fullName}`);
			// The message without the stack's lines inside jest and node_modules.
			const message = plain(test.failureMessages.join('\n'))
				.split('\n')
				.filter((line) => !/^\s*at .*(node_modules|node:internal)/.test(line));
			lines.push(...message.slice(0, FAILURE_LINES).map((line) => `    ${line}`));
		}
	}
	return lines;
}

class SummaryReporter {
	onRunComplete(_contexts, results) {
		const failedSuites = results.numRuntimeErrorTestSuites;
		const failed = results.numFailedTests + failedSuites;
		const account = failureAccount(results);
		if (account.length > 0) console.log(`\nFailures:\n${account.join('\n')}`);
		console.log(`\n${results.numPassedTests} passed, ${failed} failed`);
	}
}
module.exports = SummaryReporter;
