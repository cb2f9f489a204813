import { createInterface } from 'node:readline';
import { runCli, type CliIo } from './cli-commands';
import { ConfigError, invocationDir, loadConfig } from './config';
import { DatabaseLockedError, openDatabase } from './db/client';
import { checkMarketFeedKeys } from './modules/market-research/market-feed-keys';

/** `npm run gem -w apps/server -- …`: manage local accounts and app access (see cli-commands.ts). */

// Same folder as `npm start`, so the same .env and the same embedded database.
const dir = invocationDir();
if (dir) process.chdir(dir);

async function readSecretLine(prompt: string, silent: boolean): Promise<string> {
  const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: silent });
  if (silent) {
    // Show the prompt, echo nothing of what is typed.
    const writer = rl as unknown as { _writeToOutput: (s: string) => void };
    writer._writeToOutput = (s: string) => {
      if (s.startsWith(prompt) || s === '\r\n' || s === '\n') process.stderr.write(s);
    };
  }
  try {
    return await new Promise<string>((resolve, reject) => {
      rl.question(prompt, resolve);
      rl.once('close', () => reject(new Error('no password given on stdin')));
    });
  } finally {
    rl.close();
  }
}

const io: CliIo = {
  async readPassword(prompt) {
    // Never from argv, where other users can read it in the process list.
    if (!process.stdin.isTTY) return readSecretLine('', false);
    const first = await readSecretLine(prompt, true);
    const again = await readSecretLine('Once more: ', true);
    if (first !== again) throw new Error('The two passwords differ.');
    return first;
  },
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
};

try {
  const config = loadConfig({ checks: [checkMarketFeedKeys] });
  const database = await openDatabase(config.database, config.migrationsDir);
  try {
    process.exitCode = await runCli(process.argv.slice(2), { config, db: database.db, io });
  } finally {
    await database.close();
  }
} catch (err) {
  if (err instanceof ConfigError || err instanceof DatabaseLockedError) io.err(err.message);
  else io.err(`gem: ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
}
