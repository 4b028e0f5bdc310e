// Prints the plain closing line CI reads: "N passed, N failed".
class SummaryReporter {
	onRunComplete(_contexts, results) {
		const failedSuites = results.numRuntimeErrorTestSuites;
		const failed = results.numFailedTests + failedSuites;
		console.log(`\n${results.numPassedTests} passed, ${failed} failed`);
	}
}
module.exports = SummaryReporter;
