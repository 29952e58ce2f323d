// A step type of the demo bot's own, loaded through "stepTypes" in demo/bot.json
// (docs/integrations.md, "Writing a step type of your own"). It needs nothing from
// the product: the default export is a plain object the server checks at start-up.
//
// An "advanced" step: two calls to the loyalty API (the member's points, the
// programme's tiers), combined into one directly usable answer.

/** @type {import('../../server/integrations/define-step-type.ts').StepTypeModule} */
export default {
  name: 'loyaltyPoints',
  level: 'action',
  description: "Reads a member's loyalty points and tells their tier and what the next one takes.",
  params: {
    type: 'object',
    properties: { memberId: { type: 'string', minLength: 1 } },
    required: ['memberId'],
    additionalProperties: false,
  },
  output: {
    type: 'object',
    properties: {
      points: { type: 'integer', minimum: 0 },
      tier: { type: 'string' },
      nextTier: { type: ['string', 'null'] },
      pointsToNext: { type: 'integer', minimum: 0 },
    },
    required: ['points', 'tier', 'nextTier', 'pointsToNext'],
    additionalProperties: false,
  },
  async call({ params, request, log }) {
    // Relative URLs resolve under the step's service; its auth is added by the product.
    const member = await request({ method: 'GET', url: `loyalty/members/${encodeURIComponent(params.memberId)}` });
    const tiers = await request({ method: 'GET', url: 'loyalty/tiers' });
    const points = member.body.points;
    const sorted = [...tiers.body].sort((a, b) => a.minPoints - b.minPoints);
    const reached = sorted.filter((t) => t.minPoints <= points);
    const next = sorted.find((t) => t.minPoints > points);
    if (reached.length === 0) throw new Error('the loyalty API lists no tier for 0 points');
    log.info('loyalty points read', { tiers: sorted.length });
    return {
      points,
      tier: reached[reached.length - 1].name,
      nextTier: next ? next.name : null,
      pointsToNext: next ? next.minPoints - points : 0,
    };
  },
};
