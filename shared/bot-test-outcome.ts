/** One of the bot's tests run before a publish (the studio's publish plan), as `chatbot test` reports it. */
export interface BotTestOutcome {
  readonly name: string;
  readonly passed: boolean;
  /** What `chatbot test` prints for this test: a line, and for a failure where it failed and the diff. */
  readonly report: string;
}
