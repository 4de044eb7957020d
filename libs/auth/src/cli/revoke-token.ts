import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { TOKEN_CACHE_TTL_MS } from '../api-token.service.js';
import { withTokenStore } from './token-store.js';

const { values } = parseArgs({ options: { name: { type: 'string' } } });
if (!values.name) {
  console.error('usage: npm run token:revoke -- --name <token name>   (npm run token:list shows the names)');
  process.exit(2);
}
await withTokenStore(async (tokens) => {
  if (await tokens.revoke(values.name!)) {
    console.log(`revoked ${values.name}: refused at once by new api processes, by running ones within ${TOKEN_CACHE_TTL_MS / 1000} s`);
  } else {
    console.error(`no live token named ${values.name}`);
    process.exitCode = 1;
  }
});
