#!/usr/bin/env -S node --enable-experimental-regexp-engine-on-excessive-backtracks
// The flag above makes V8 switch a regular expression to its linear-time engine when it
// backtracks excessively, so a hostile `$match(..., /(a+)+$/)` cannot freeze the process.
// When this file is started some other way (`node bin/flowgate.js`), set the flag before
// any regular expression is compiled.
import { setFlagsFromString } from 'node:v8'

const flag = '--enable-experimental-regexp-engine-on-excessive-backtracks'
if (!process.execArgv.includes(flag)) setFlagsFromString(flag)

const { main } = await import('../dist/cli/main.js')
process.exitCode = await main(process.argv)
