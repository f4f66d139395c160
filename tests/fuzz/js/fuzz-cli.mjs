// The command line the differential fuzzers share:
//   <seconds> <seed> [--json] [--known-defects] [--run N] [--no-shrink]
//   --case '<a repro's "case:" line>'
// (the known-defects switch also from an environment variable of each
// fuzzer's own).

/**
 * @param {string[]} argv  process.argv.slice(2)
 * @param {string} knownDefectsVariable  e.g. "READ_FUZZ_KNOWN_DEFECTS"
 */
export function fuzzArguments(argv, knownDefectsVariable) {
  const flag = (name) => argv.includes(name);
  const valueOf = (name) => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const caseText = valueOf("--case");
  const positional = argv.filter((a, i) => !a.startsWith("--") && !(i > 0 && ["--run", "--case"].includes(argv[i - 1])));
  const [seconds = "60", seed = String(Date.now() % 100000)] = positional;
  const run = valueOf("--run");
  return {
    oneCase: caseText === undefined ? undefined : JSON.parse(caseText),
    seconds: Number(seconds),
    seed: Number(seed),
    json: flag("--json"),
    skipKnown: flag("--known-defects") || process.env[knownDefectsVariable] === "1",
    only: run === undefined ? undefined : Number(run),
    shrink: !flag("--no-shrink"),
  };
}
