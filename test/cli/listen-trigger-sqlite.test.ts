// `openpis trigger` and `openpis listen` against a running service (listen-trigger.ts), on SQLite.
import { describeListenAndTrigger } from './listen-trigger.js';

await describeListenAndTrigger('sqlite');
