#!/usr/bin/env -S node --enable-experimental-regexp-engine-on-excessive-backtracks --max-semi-space-size=8
// The first flag above makes V8 switch a regular expression to its linear-time engine when it
// backtracks excessively, so a hostile `$match(..., /(a+)+$/)` cannot freeze the process. The
// second caps the young generation at 8 MB a semi-space (16 by default): a gateway allocates
// short-lived objects per request, and this keeps its memory well under 200 MB under load
// for a few percent more scavenges.
// When this file is started some other way (`node bin/flowgate.js`), set the flag before
// any regular expression is compiled.
import { setFlagsFromString } from 'node:v8'

const flag = '--enable-experimental-regexp-engine-on-excessive-backtracks'
if (!process.execArgv.includes(flag)) setFlagsFromString(flag)

const { main } = await import('../dist/cli/main.js')
process.exitCode = await main(process.argv)
