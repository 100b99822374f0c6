// compile.mjs compiles LandTitle.sol with the solc-js pinned in package.json and writes, into the
// directory given as its only argument (default: the Go package directory, ..):
//
//	LandTitle.abi          the ABI, JSON, two-space indented, newline-terminated
//	LandTitle.bin          the creation bytecode, hex without 0x, newline-terminated
//	LandTitle.bin-runtime  the runtime bytecode, immutables (the registry) left as zeros
//
// The output depends only on the source bytes, the pinned compiler and the pinned OpenZeppelin
// sources: the standard JSON input below names every setting, and sources are given under fixed
// relative names, never absolute paths. Any error, and any warning but the one
// expected below, fails the build.
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);
const solc = require("solc");

const here = dirname(fileURLToPath(import.meta.url));
const outDir = resolve(process.argv[2] ?? join(here, ".."));
const pkg = JSON.parse(readFileSync(join(here, "package.json"), "utf8"));

const want = pkg.devDependencies.solc;
const have = solc.version();
if (!have.startsWith(want + "+")) {
  console.error(`compile.mjs: solc ${have} is not the pinned ${want}; run npm ci`);
  process.exit(1);
}
const oz = JSON.parse(
  readFileSync(join(here, "node_modules/@openzeppelin/contracts/package.json"), "utf8"),
).version;
if (oz !== pkg.devDependencies["@openzeppelin/contracts"]) {
  console.error(`compile.mjs: @openzeppelin/contracts ${oz} is not the pinned one; run npm ci`);
  process.exit(1);
}

const input = {
  language: "Solidity",
  sources: { "LandTitle.sol": { content: readFileSync(join(here, "LandTitle.sol"), "utf8") } },
  settings: {
    evmVersion: "cancun",
    optimizer: { enabled: true, runs: 200 },
    viaIR: false,
    metadata: { bytecodeHash: "ipfs", useLiteralContent: false },
    outputSelection: {
      "LandTitle.sol": { LandTitle: ["abi", "evm.bytecode.object", "evm.deployedBytecode.object"] },
    },
  },
};

// findImports resolves "@openzeppelin/..." from node_modules and refuses anything else, so that
// nothing outside the pinned packages can reach the build.
function findImports(path) {
  if (!path.startsWith("@openzeppelin/contracts/") || path.includes("..")) {
    return { error: `import ${path} is outside @openzeppelin/contracts` };
  }
  try {
    return { contents: readFileSync(join(here, "node_modules", path), "utf8") };
  } catch (err) {
    return { error: `import ${path}: ${err.message}` };
  }
}

const output = JSON.parse(solc.compile(JSON.stringify(input), { import: findImports }));
// expected reports the one known warning: overriding transferFrom to always revert makes the rest of
// OpenZeppelin's safeTransferFrom body, which calls it, unreachable (5740 "Unreachable code").
const expected = (p) =>
  p.severity === "warning" &&
  p.errorCode === "5740" &&
  p.sourceLocation?.file === "@openzeppelin/contracts/token/ERC721/ERC721.sol";
const problems = (output.errors ?? []).filter((p) => !expected(p));
for (const p of problems) {
  console.error(p.formattedMessage ?? p.message);
}
if (problems.length > 0) {
  console.error(`compile.mjs: ${problems.length} error(s) or warning(s); nothing written`);
  process.exit(1);
}

const c = output.contracts["LandTitle.sol"].LandTitle;
mkdirSync(outDir, { recursive: true });
writeFileSync(join(outDir, "LandTitle.abi"), JSON.stringify(c.abi, null, 2) + "\n");
writeFileSync(join(outDir, "LandTitle.bin"), c.evm.bytecode.object + "\n");
writeFileSync(join(outDir, "LandTitle.bin-runtime"), c.evm.deployedBytecode.object + "\n");
console.log(
  `compile.mjs: solc ${have}, @openzeppelin/contracts ${oz}: ` +
    `${c.evm.bytecode.object.length / 2} bytes creation, ` +
    `${c.evm.deployedBytecode.object.length / 2} bytes runtime -> ${outDir}`,
);
