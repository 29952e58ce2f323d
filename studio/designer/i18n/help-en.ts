/**
 * The schema's help texts that the studio says in its own English, keyed by the English text the
 * server serves. The server's descriptions name the values the definition stores ("fatal",
 * "dialog:<dialogId>", "sync", "dialogStart") for whoever writes the JSON or uses the CLI; the form's
 * lists show those values in words, so its help names them by the same words. Any other description
 * reads as the server wrote it, with its JSON keys turned into labels (help-words.ts).
 */
const helpEn: Readonly<Record<string, string>> = {
  'Where a user goes whose position names a dialog or step this definition no longer has (a redeploy renamed or removed it): "dialogStart", the first step of their dialog while it exists, else recoveryDialog; "recoveryDialog", always there. The move is logged.':
    'Where a user goes whose place in the conversation is a dialog or step this bot no longer has (a new version renamed or removed it): "The start of their dialog", the first step of their dialog while it exists, else the "Recovery dialog"; "The recovery dialog", always that one. The move is logged.',
  'Where the answer is kept: { "userData": field } or { "variable": name }.':
    "Where the answer is kept: in a user-data field (part of the user's data export) or in a variable (not exported).",
  'How the answer is validated: text, number, email, phone, choice or regex.':
    'What kind of answer the question takes; the answer is checked against it.',
  'equals, notEquals, empty, notEmpty, greater, less, contains, matches (a regex) or in (a list).':
    'How the value is compared: equals, does not equal, is empty, is not empty, is greater than, is less than, contains, matches the pattern (a regular expression) or is one of (a list).',
  'set, unset or append (to a list).': '"Set to a value", "Clear" or "Add to a list".',
  'The integration step type: http, service, listUserEvents, createUser, sendTrackingEvent, queryDataset.':
    'What the step calls: one of the step types this server offers. Under the list, the chosen one says what it does and what it needs.',
  "sync: the user waits (typing indicator) and the tree continues from the result; async: a durable job, the tree continues at once. The type's own when omitted.":
    '"Wait for the answer": the user waits (the bot shows it is typing) and the steps go on with the result; "In the background": a job that is retried if it fails, and the steps go on at once. When not set, the step type decides.',
  'What a failed call does: "fatal" (the errorText as a fatal notice, the conversation ends), "dialog:<dialogId>" (go there) or "flag:<variable>" (the variable becomes true and "<variable>Error" the error kind; the tree continues and can branch on it).':
    'What happens when the call fails: "End with the error text" (the user reads the "Error text" and the conversation ends), "Go to a dialog" (that dialog starts) or "Set a flag and go on" (the flag becomes true, a variable of the same name ending in Error says what went wrong, and the steps go on: a condition can check the flag).',
  'A service of integrations.services (base URL + auth) the call goes to.':
    "A service of the bot's integrations (its base URL and sign-in) the call goes to.",
  'Synchronous deadline in ms (5000 when omitted).':
    'How long "Wait for the answer" waits, in milliseconds (5000 when not set).',
  'Async only: attempts before the job is given up (6 when omitted).':
    '"In the background" only: attempts before the job is given up (6 when not set).',
  "The fatal notice's text; a general apology when omitted.":
    'What the user reads when the call fails and the conversation ends; a general apology when not set.',
  "Where this answer leads; the step's `next` when omitted.":
    'Where this answer leads; the step\'s "Then go to step" when not set.',
  'Said when an answer fails validation; the prompt when omitted.':
    'Said when an answer fails the check; the "Question" again when not set.',
  'Suggested answers shown with the prompt.': 'Suggested answers shown with the "Question".',
  'Where to go when no branch holds; `next` (or the following step) when omitted.':
    'Where to go when no branch holds; "Then go to step" (or the following step) when not set.',
  'Lowest score an intent needs; settings.nlpThreshold when omitted.':
    'Lowest score an intent needs; the bot settings\' "NLP threshold" when not set.',
  'Lowest match score (0..1, 1 = exact); settings.faqThreshold when omitted.':
    'Lowest match score (0..1, 1 = exact); the bot settings\' "FAQ threshold" when not set.',
  'Where to go when nothing matched; `next` when omitted.':
    'Where to go when nothing matched; "Then go to step" when not set.',
  'Where to go when the user writes something else on this channel instead; `next` (unlinked) when omitted.':
    'Where to go when the user writes something else on this channel instead; "Then go to step" (not linked) when not set.',
  'Not used by empty / notEmpty; a list for "in"; a regex source for "matches".':
    'Not used by "is empty" and "is not empty"; a list for "is one of"; a pattern (a regular expression) for "matches the pattern".',
  'USER_ENTERED reads values as if typed (numbers, dates, formulas); RAW stores them as they are.':
    '"As if typed (formulas and dates read)": values are read as if someone typed them (numbers, dates, formulas); "As they are": values are stored exactly as sent.',
  // A step kind's description names the server's environment variables; the palette says what they stand for.
  'Sends an email (SMTP_URL); a failure follows onError.':
    "Sends an email through the mail server the bot's server is set up with; a failure follows onError.",
  'Sends a text message (SMS_URL); a failure follows onError.':
    "Sends a text message through the SMS service the bot's server is set up with; a failure follows onError.",
  'Clears user-data fields (all when fields is omitted).':
    'Clears user-data fields: those listed under "Fields", or every one when none is listed.',
  'A JSONata expression over the output, or "@name" for a mapping the type offers (e.g. "@cards").':
    'How the result is reshaped before it is kept: a mapping the step type offers, as "@" and its name (e.g. "@cards" shows a list as cards), or an expression of your own (JSONata).',
  'Groups of words that mean the same to this bot\'s FAQ, e.g. [["parcel", "package"]]: a question in one word matches a phrasing in another.':
    'Groups of words that mean the same to this bot\'s FAQ, e.g. "parcel" and "package": a question in one word matches a phrasing in another. Each group is a list in square brackets, and the groups stand in a list around them.',
  'Picture the web chat shows in its header beside the name: an absolute http(s) URL.':
    'Picture the web chat shows in its header beside the name: a full web address (https://…).',
  // A description that sends whoever writes the file to a page of the docs; the form says the same without the path.
  "Lowest intent score (0..1) that routes free text to an intent's dialog. Omitted: the threshold the classifier calibrates for this bot when it loads (docs/understanding.md).":
    "Lowest intent score (0..1) that routes free text to an intent's dialog. When not set: the threshold the bot works out for itself when it loads.",
  'For a dialog a trigger or timer may start: the approved WhatsApp template sent instead of its opening messages when the user last wrote more than 24 hours ago (docs/channels.md). Without it, such a trigger is refused with 409.':
    'For a dialog a trigger or timer may start: the approved WhatsApp template sent instead of its opening messages when the user last wrote more than 24 hours ago. Without it, such a trigger is refused.',
};

export default helpEn;
