#!/usr/bin/env node
// Compiles contracts/src/*.sol with the pinned npm `solc` and writes one artifact per deployable
// contract: <out>/<Name>.json = { "abi": [...], "bytecode": "0x...", "deployedBytecode": "0x..." }.
//
// Usage: node build.mjs [--out DIR]   (default DIR: contracts/artifacts)
//
// The output must be byte-for-byte reproducible, because check.sh compares a fresh build with the
// committed artifacts and the Rust side computes CREATE2 addresses from the creation bytecode:
// - the compiler version is pinned in package.json/package-lock.json and checked below;
// - no metadata hash or CBOR trailer is appended to the bytecode (it would depend on file paths
//   and comments);
// - sources are fed in sorted order with paths relative to contracts/;
// - any compiler warning fails the build, so nothing questionable slips into an artifact.
import { readFileSync, readdirSync, writeFileSync, mkdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const solc = require('solc');

/** The contracts that get an artifact; libraries and interfaces are compiled into them. */
const DEPLOYABLE = ['Split', 'SplitFactory', 'Deposit', 'DepositFactory', 'TestToken', 'SpendPermissionManager', 'TestWallet', 'TestWalletFactory', 'SignatureValidator6492'];
/** Must match package.json; a different solc would produce different bytecode (and addresses). */
const SOLC_VERSION = '0.8.28';
/** Pinned explicitly so a compiler default change cannot alter the bytecode. */
const EVM_VERSION = 'cancun';

function parseArgs(argv) {
  let out = join(here, 'artifacts');
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--out' && i + 1 < argv.length) out = argv[++i];
    else throw new Error(`unknown argument: ${argv[i]} (usage: node build.mjs [--out DIR])`);
  }
  return { out };
}

function main() {
  const { out } = parseArgs(process.argv.slice(2));
  const version = solc.version();
  if (!version.startsWith(`${SOLC_VERSION}+`)) {
    throw new Error(`solc ${version} loaded, ${SOLC_VERSION} expected: run npm ci in contracts/`);
  }

  const sources = {};
  for (const file of readdirSync(join(here, 'src')).filter((f) => f.endsWith('.sol')).sort()) {
    sources[`src/${file}`] = { content: readFileSync(join(here, 'src', file), 'utf8') };
  }

  const input = {
    language: 'Solidity',
    sources,
    settings: {
      evmVersion: EVM_VERSION,
      optimizer: { enabled: true, runs: 200 },
      metadata: { bytecodeHash: 'none', appendCBOR: false },
      outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object'] } },
    },
  };

  const output = JSON.parse(solc.compile(JSON.stringify(input)));
  const problems = (output.errors ?? []).filter((e) => e.severity !== 'info');
  for (const p of problems) console.error(p.formattedMessage ?? p.message);
  if (problems.length > 0) throw new Error(`${problems.length} compiler error(s) or warning(s)`);

  mkdirSync(out, { recursive: true });
  for (const name of DEPLOYABLE) {
    const compiled = output.contracts[`src/${name}.sol`]?.[name];
    if (!compiled) throw new Error(`contract ${name} not found in src/${name}.sol`);
    const artifact = {
      abi: compiled.abi,
      bytecode: `0x${compiled.evm.bytecode.object}`,
      deployedBytecode: `0x${compiled.evm.deployedBytecode.object}`,
    };
    writeFileSync(join(out, `${name}.json`), `${JSON.stringify(artifact, null, 2)}\n`);
    const size = (artifact.deployedBytecode.length - 2) / 2;
    console.log(`${name}: ${size} bytes of runtime code -> ${join(out, `${name}.json`)}`);
  }
}

try {
  main();
} catch (err) {
  console.error(`build.mjs: ${err.message}`);
  process.exit(1);
}
