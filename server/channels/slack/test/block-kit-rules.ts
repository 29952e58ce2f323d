/**
 * Block Kit's rules for the blocks a message may carry, as Slack's reference pages state them. The
 * Web API's machine-readable reference leaves `blocks` open ("a very loose definition": an array of
 * objects with a `type`), so the rules are written down here, each from the page that states it:
 *
 * - https://api.slack.com/reference/block-kit/blocks — "up to 50 blocks in each message"; section:
 *   `text` "Maximum length for the text in this field is 3000 characters", `block_id` "Maximum length
 *   … is 255 characters", `accessory` one element; actions: `elements` "up to 25 elements"; image:
 *   `image_url` "Maximum length … is 3000 characters", `alt_text` "Maximum length … is 2000
 *   characters", `title` 2000.
 * - https://api.slack.com/reference/block-kit/block-elements — button: `text` a plain_text object, "Maximum
 *   length … is 75 characters", `action_id` 255 (unique within its block), `value` 2000, `url` 3000;
 *   static select: `placeholder` plain_text 150, `options` "Maximum number of options is 100"; image
 *   element: `image_url` and `alt_text` required.
 * - https://api.slack.com/reference/block-kit/composition-objects — text object: `type` plain_text or
 *   mrkdwn, `text` "minimum of 1 and maximum of 3000 characters", `emoji` only with plain_text,
 *   `verbatim` only with mrkdwn; option: `text` 75, `value` 150.
 *
 * Stricter than Slack in two ways, on purpose: a field Slack would ignore is refused (a misspelt
 * `alt_txt` fails a test instead of a user's screen reader), and a text of spaces alone counts as
 * empty. Lengths count UTF-16 code units, never fewer than Slack counts.
 */

type Value = Record<string, unknown>;

const isObject = (value: unknown): value is Value =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function only(value: Value, where: string, allowed: readonly string[], problems: string[]): void {
  for (const key of Object.keys(value))
    if (!allowed.includes(key)) problems.push(`unknown field "${key}" [json-pointer:${where}]`);
}

function string(value: unknown, where: string, max: number, problems: string[], required = true): void {
  if (value === undefined) {
    if (required) problems.push(`missing required field [json-pointer:${where}]`);
    return;
  }
  if (typeof value !== 'string') problems.push(`must be a string [json-pointer:${where}]`);
  else if (value.trim() === '') problems.push(`must be more than 0 characters [json-pointer:${where}]`);
  else if (value.length > max) problems.push(`must be less than ${max + 1} characters [json-pointer:${where}]`);
}

function textObject(value: unknown, where: string, max: number, problems: string[], plainOnly = false): void {
  if (!isObject(value)) return void problems.push(`must be a text object [json-pointer:${where}]`);
  if (value.type !== 'plain_text' && (plainOnly || value.type !== 'mrkdwn'))
    return void problems.push(
      `must be ${plainOnly ? 'plain_text' : 'plain_text or mrkdwn'} [json-pointer:${where}/type]`,
    );
  only(value, where, value.type === 'plain_text' ? ['type', 'text', 'emoji'] : ['type', 'text', 'verbatim'], problems);
  string(value.text, `${where}/text`, max, problems);
}

function url(value: unknown, where: string, max: number, problems: string[]): void {
  string(value, where, max, problems);
  if (typeof value === 'string' && !/^https?:\/\/[^\s]+$/.test(value))
    problems.push(`must be a valid URL [json-pointer:${where}]`);
}

function imageElement(value: Value, where: string, problems: string[]): void {
  only(value, where, ['type', 'image_url', 'alt_text'], problems);
  url(value.image_url, `${where}/image_url`, 3000, problems);
  string(value.alt_text, `${where}/alt_text`, 2000, problems);
}

function element(value: unknown, where: string, actionIds: Set<string>, problems: string[]): void {
  if (!isObject(value)) return void problems.push(`must be an element [json-pointer:${where}]`);
  const actionId = value.action_id;
  if (actionId !== undefined) {
    string(actionId, `${where}/action_id`, 255, problems);
    if (typeof actionId === 'string' && actionIds.has(actionId))
      problems.push(`action_id "${actionId}" is already used in this block [json-pointer:${where}/action_id]`);
    if (typeof actionId === 'string') actionIds.add(actionId);
  }
  switch (value.type) {
    case 'button':
      only(value, where, ['type', 'text', 'action_id', 'value', 'url', 'style'], problems);
      textObject(value.text, `${where}/text`, 75, problems, true);
      if (value.value !== undefined) string(value.value, `${where}/value`, 2000, problems);
      if (value.url !== undefined) url(value.url, `${where}/url`, 3000, problems);
      return;
    case 'static_select': {
      only(value, where, ['type', 'action_id', 'placeholder', 'options'], problems);
      textObject(value.placeholder, `${where}/placeholder`, 150, problems, true);
      const options = value.options;
      if (!Array.isArray(options) || options.length === 0 || options.length > 100)
        return void problems.push(`must provide 1 to 100 options [json-pointer:${where}/options]`);
      const values = new Set<unknown>();
      options.forEach((option: unknown, i) => {
        const at = `${where}/options/${i}`;
        if (!isObject(option)) return void problems.push(`must be an option [json-pointer:${at}]`);
        only(option, at, ['text', 'value'], problems);
        textObject(option.text, `${at}/text`, 75, problems, true);
        string(option.value, `${at}/value`, 150, problems);
        if (values.has(option.value)) problems.push(`option values must be unique [json-pointer:${at}/value]`);
        values.add(option.value);
      });
      return;
    }
    case 'image':
      return imageElement(value, where, problems);
    default:
      problems.push(`unsupported element type ${JSON.stringify(value.type)} [json-pointer:${where}/type]`);
  }
}

/** The first problems of a message's blocks, worded as Slack words `invalid_blocks`; none: they are valid. */
export function blockProblems(blocks: unknown): string[] {
  const problems: string[] = [];
  if (!Array.isArray(blocks)) return ['must be an array [json-pointer:/blocks]'];
  if (blocks.length > 50) problems.push('must provide less than 51 items [json-pointer:/blocks]');
  blocks.forEach((block: unknown, i) => {
    const where = `/blocks/${i}`;
    if (!isObject(block)) return void problems.push(`must be a block [json-pointer:${where}]`);
    if (block.block_id !== undefined) string(block.block_id, `${where}/block_id`, 255, problems);
    switch (block.type) {
      case 'section':
        only(block, where, ['type', 'block_id', 'text', 'accessory'], problems);
        textObject(block.text, `${where}/text`, 3000, problems);
        if (block.accessory !== undefined) element(block.accessory, `${where}/accessory`, new Set(), problems);
        return;
      case 'actions': {
        only(block, where, ['type', 'block_id', 'elements'], problems);
        const elements = block.elements;
        if (!Array.isArray(elements) || elements.length === 0)
          return void problems.push(`must provide at least 1 element [json-pointer:${where}/elements]`);
        if (elements.length > 25) problems.push(`must provide less than 26 items [json-pointer:${where}/elements]`);
        const ids = new Set<string>();
        elements.forEach((inner: unknown, j) => element(inner, `${where}/elements/${j}`, ids, problems));
        return;
      }
      case 'image':
        only(block, where, ['type', 'block_id', 'image_url', 'alt_text', 'title'], problems);
        url(block.image_url, `${where}/image_url`, 3000, problems);
        string(block.alt_text, `${where}/alt_text`, 2000, problems);
        if (block.title !== undefined) textObject(block.title, `${where}/title`, 2000, problems, true);
        return;
      default:
        problems.push(`unsupported block type ${JSON.stringify(block.type)} [json-pointer:${where}/type]`);
    }
  });
  return problems;
}

/** The image addresses a message's blocks ask Slack to fetch. */
export function imageUrls(blocks: unknown): string[] {
  if (!Array.isArray(blocks)) return [];
  return blocks.flatMap((block: unknown) => {
    if (!isObject(block)) return [];
    if (block.type === 'image' && typeof block.image_url === 'string') return [block.image_url];
    const accessory = block.accessory;
    return isObject(accessory) && accessory.type === 'image' && typeof accessory.image_url === 'string'
      ? [accessory.image_url]
      : [];
  });
}
