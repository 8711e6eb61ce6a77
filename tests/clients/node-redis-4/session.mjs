// node-redis 4.x, with its defaults: RESP2.
import * as redis from 'redis';
import { nodeRedisSession } from '../node-common/node-redis-session.mjs';

await nodeRedisSession('node-redis-4', redis, '2');
