import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SqliteStore } from '../../src/storage/sqlite/sqlite-store.js'
import { storeContract } from './store.contract.js'

let directory = ''
storeContract('sqlite', {
  open: () => SqliteStore.open((directory = mkdtempSync(join(tmpdir(), 'flowgate-store-')))),
  reopen: () => SqliteStore.open(directory),
})
