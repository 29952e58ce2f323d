/** The schemathesis contract run (schemathesis-run.ts) against the sqlite store. */
import { describeSchemathesis } from './schemathesis-run.ts';

describeSchemathesis('sqlite');
