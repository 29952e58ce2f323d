import express, { type Express, type Router } from 'express';
import { crmRouter, type CrmState } from './routes/crm.ts';
import { longOperationRouter } from './routes/long-operation.ts';
import { loyaltyRouter } from './routes/loyalty.ts';
import { placesRouter } from './routes/places.ts';

/** Where the customer's system reaches the bot, and how long its operations take. */
export interface ExternalApiOptions {
  /** The bot's {base_url}, e.g. http://127.0.0.1:3000. */
  readonly botUrl: string;
  readonly botId: string;
  readonly functionKey: string;
  /** How long the long operation takes before it reports back (ms). */
  readonly operationMs: number;
  /** Dialogs the trigger starts when the operation succeeds or fails. */
  readonly successDialog: string;
  readonly failureDialog: string;
  /** Where problems go; console by default. */
  readonly log?: (message: string) => void;
}

/**
 * A small Express app playing the customer's system in the demo (spec 4.2's
 * long-operation example, 4.3's recommended API shapes). Each feature is one
 * router under routes/; add more (a user's events, creating a user) the same way.
 */
export function createExternalApi(options: ExternalApiOptions): Express & { pending(): Promise<void>; crm: CrmState } {
  const app = express();
  app.disable('x-powered-by');
  app.use(express.json({ limit: '16kb' }));
  const long = longOperationRouter(options);
  const crm = crmRouter();
  const routers: Router[] = [long.router, crm.router, placesRouter(), loyaltyRouter()];
  for (const router of routers) app.use(router);
  app.use((_req, res) => {
    res.status(404).json({ error: { code: 'not_found', message: 'No such endpoint in the demo external API.' } });
  });
  return Object.assign(app, { pending: long.pending, crm: crm.state });
}
