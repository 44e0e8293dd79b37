#!/usr/bin/env -S node --enable-experimental-regexp-engine-on-excessive-backtracks --max-semi-space-size=16
// The first flag above makes V8 switch a regular expression to its linear-time engine when it
// backtracks excessively, so a hostile `$match(..., /(a+)+$/)` cannot freeze the process. The
// second sets the young generation at 16 MB a semi-space, whatever V8 would pick for this
// machine: per-request objects then die young instead of being promoted, which measured
// faster than 8 or 32 MB (npm run bench), with peak memory no higher.
// When this file is started some other way (`node bin/flowgate.js`), set the flag before
// any regular expression is compiled.
import { setFlagsFromString } from 'node:v8'

const flag = '--enable-experimental-regexp-engine-on-excessive-backtracks'
if (!process.execArgv.includes(flag)) setFlagsFromString(flag)

const { main } = await import('../dist/cli/main.js')
process.exitCode = await main(process.argv)
