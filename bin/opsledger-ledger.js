#!/usr/bin/env node
// opsledger-ledger decode|verify <file>: prints a Fabric message as readable JSON, or a verification report.
"use strict";
require("../dist/provider/ledger/cli.js")
  .main(process.argv.slice(2))
  .then(
    (code) => {
      process.exitCode = code;
    },
    (e) => {
      process.stderr.write(`opsledger-ledger: ${e instanceof Error ? e.message : String(e)}\n`);
      process.exitCode = 1;
    },
  );
