/**
 * The bot's tests as the studio keeps them: one document in the format `chatbot test` runs
 * (`{ tests: [...] }`, cli/bot-tests/test-file.ts), added to by the preview's "Save as test" and
 * run before every publish. Replaced whole, on a revision check, so two saves never lose one.
 */
export interface StoredBotTests {
  /** The tests as JSON text (the `tests` array of a test file). */
  readonly body: string;
  /** 1 for the first save, one more for each later one. */
  readonly revision: number;
  readonly updatedAt: number;
  /** The account that saved last. */
  readonly updatedBy: string;
}

export interface BotTestsRoom {
  read(): Promise<StoredBotTests | null>;
  /**
   * Stores `body` when the stored revision is still `expected` (null: none stored yet);
   * answers the new record, or 'conflict' when another save came first.
   */
  write(body: string, expected: number | null, by: string, at: number): Promise<StoredBotTests | 'conflict'>;
}
