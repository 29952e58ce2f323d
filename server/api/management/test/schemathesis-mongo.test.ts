/** The schemathesis contract run (schemathesis-run.ts) against the mongo store. */
import { describeSchemathesis } from './schemathesis-run.ts';

describeSchemathesis('mongo');
