// node-redis at its newest major, with its defaults: RESP3 (it opens with HELLO 3).
import * as redis from 'redis';
import { nodeRedisSession } from '../node-common/node-redis-session.mjs';

await nodeRedisSession('node-redis-6', redis, '3');
