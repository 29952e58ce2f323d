/** The Misses view's sentences, English and German (merged into the studio's tables in strings.ts). */
export const missesEn = {
  tabMisses: 'Misses',
  missesIntro:
    "What visitors wrote that the bot did not understand, grouped by likeness with the bot's own language model. Suggestions and the quality report are of {source}.",
  missesSourceDraft: 'your draft (revision {revision})',
  missesSourceVersion: 'the newest version {id}',
  missesSourceNone: 'the bot in service',
  missesRange: 'Days',
  missesReadOnly:
    'Adding inputs to the bot changes the draft, which needs the owner or editor role; you can read the misses.',
  missesCapped:
    'The {log} has more rows in these days than are read at once ({cap}): the misses cover them up to {time} UTC. Choose fewer days to see the rest.',
  missesMostFrequent:
    'The {log} holds {distinct} different inputs in these days: the {n} most frequent are grouped here.',
  missesMostFrequentOne:
    'The {log} holds {distinct} different inputs in these days: only the most frequent is grouped here.',
  logNlp: 'NLP log',
  logFaq: 'FAQ log',
  missesUnprocessed: 'Unprocessed inputs, grouped by likeness',
  missesFaq: 'FAQ questions not answered, grouped by likeness',
  missesNone: 'Nothing in these days.',
  colInputs: 'Inputs',
  colNearest: 'Nearest intent and FAQ pair',
  colAdd: 'Teach the bot',
  nearestIntent: 'Intent {id} ({score})',
  nearestFaq: 'FAQ {id} ({score})',
  nearestNoIntent: 'No intent is close',
  nearestNoFaq: 'No FAQ pair is close',
  chooseIntent: 'Choose an intent',
  chooseFaq: 'Choose a FAQ pair',
  missesChooseTarget: 'Choose the intent or FAQ pair to add the inputs to.',
  taughtIntent: 'already in intent {id}',
  taughtFaq: 'already in FAQ {id}',
  groupTaught: 'Already taught: {targets}. Nothing left to add.',
  groupPartlyTaught: 'Partly taught: {targets}.',
  missesSkipped: '{n} of them were there already and were not added again.',
  moreInputs: 'and {n} more alike',
  intentFor: 'Intent for: {text}',
  faqFor: 'FAQ pair for: {text}',
  addToIntent: 'Add to intent: {text}',
  addToFaq: 'Add to FAQ questions: {text}',
  addToIntentShort: 'Add to intent',
  addToFaqShort: 'Add to FAQ questions',
  missesAddedOne:
    'Added 1 input to {target} in your draft (revision {revision}). Preview it in the designer, then publish to put it in service.',
  missesAdded:
    'Added {n} inputs to {target} in your draft (revision {revision}). Preview it in the designer, then publish to put it in service.',
  missesNothingAdded: '{target} already holds these inputs; the draft is unchanged.',
  missesNoneTicked: "Tick at least one of the group's inputs to add.",
  qualityTitle: 'Intent quality of {source}',
  qualityAccuracy:
    'Held out in turn, {accuracy} of the utterances are classified as their own intent; {atThreshold} also clear the threshold {threshold}.',
  qualityTooFew: 'Too few intents or utterances to cross-validate: add more example phrasings.',
  qualityThreshold:
    'Calibrated threshold: {suggested}, which the bot uses (the definition sets none). Expected from cross-validation: {routed} of questions about its intents routed right, {refused} of texts about something else turned away.',
  qualityThresholdOverridden:
    'Calibrated threshold: {suggested} (expected: {routed} routed right, {refused} of texts about something else turned away); the bot uses {threshold}, set in the definition.',
  qualityNoThreshold: 'Too few utterances to calibrate a threshold: the bot uses {threshold}.',
  qualityOnlyDefinition: 'The bot uses the threshold {threshold}, set in the definition.',
  qualityThin: 'Thin intents (fewer than five utterances): {ids}.',
  qualityNoThin: 'No thin intents.',
  qualityConfusable: 'Intents taken for each other',
  colIntents: 'Intents',
  colTimes: 'Times',
  qualityNoConfusable: 'No two intents are taken for each other.',
};

export const missesDe: typeof missesEn = {
  tabMisses: 'Nicht verstanden',
  missesIntro:
    'Was Besucher geschrieben haben und der Bot nicht verstanden hat, nach Ähnlichkeit gruppiert mit dem eigenen Sprachmodell des Bots. Grundlage der Vorschläge und des Qualitätsberichts: {source}.',
  missesSourceDraft: 'Ihr Entwurf (Revision {revision})',
  missesSourceVersion: 'neueste Version {id}',
  missesSourceNone: 'der Bot in Betrieb',
  missesRange: 'Tage',
  missesReadOnly:
    'Eingaben dem Bot beizubringen ändert den Entwurf und braucht die Rolle Inhaber oder Bearbeiter; lesen können Sie sie.',
  missesCapped:
    'Das {log} hat in diesen Tagen mehr Zeilen, als auf einmal gelesen werden ({cap}): Die Liste reicht bis {time} UTC. Wählen Sie weniger Tage, um den Rest zu sehen.',
  missesMostFrequent:
    'Das {log} enthält in diesen Tagen {distinct} verschiedene Eingaben: Hier sind die {n} häufigsten gruppiert.',
  missesMostFrequentOne:
    'Das {log} enthält in diesen Tagen {distinct} verschiedene Eingaben: Hier ist nur die häufigste gruppiert.',
  logNlp: 'NLP-Protokoll',
  logFaq: 'FAQ-Protokoll',
  missesUnprocessed: 'Nicht verarbeitete Eingaben, nach Ähnlichkeit gruppiert',
  missesFaq: 'Nicht beantwortete FAQ-Fragen, nach Ähnlichkeit gruppiert',
  missesNone: 'Nichts in diesen Tagen.',
  colInputs: 'Eingaben',
  colNearest: 'Nächstes Intent und FAQ-Paar',
  colAdd: 'Dem Bot beibringen',
  nearestIntent: 'Intent {id} ({score})',
  nearestFaq: 'FAQ {id} ({score})',
  nearestNoIntent: 'Kein Intent ist nahe',
  nearestNoFaq: 'Kein FAQ-Paar ist nahe',
  chooseIntent: 'Intent wählen',
  chooseFaq: 'FAQ-Paar wählen',
  missesChooseTarget: 'Wählen Sie das Intent oder FAQ-Paar, zu dem die Eingaben hinzukommen.',
  taughtIntent: 'schon in Intent {id}',
  taughtFaq: 'schon in FAQ {id}',
  groupTaught: 'Schon beigebracht: {targets}. Nichts mehr hinzuzufügen.',
  groupPartlyTaught: 'Zum Teil beigebracht: {targets}.',
  missesSkipped: '{n} davon waren schon da und wurden nicht noch einmal hinzugefügt.',
  moreInputs: 'und {n} weitere ähnliche',
  intentFor: 'Intent für: {text}',
  faqFor: 'FAQ-Paar für: {text}',
  addToIntent: 'Zum Intent hinzufügen: {text}',
  addToFaq: 'Zu den FAQ-Fragen hinzufügen: {text}',
  addToIntentShort: 'Zum Intent hinzufügen',
  addToFaqShort: 'Zu den FAQ-Fragen hinzufügen',
  missesAddedOne:
    '1 Eingabe zu {target} in Ihrem Entwurf hinzugefügt (Revision {revision}). Probieren Sie sie in der Vorschau des Designers aus und veröffentlichen Sie dann.',
  missesAdded:
    '{n} Eingaben zu {target} in Ihrem Entwurf hinzugefügt (Revision {revision}). Probieren Sie sie in der Vorschau des Designers aus und veröffentlichen Sie dann.',
  missesNothingAdded: '{target} enthält diese Eingaben schon; der Entwurf ist unverändert.',
  missesNoneTicked: 'Haken Sie mindestens eine Eingabe der Gruppe an.',
  qualityTitle: 'Intent-Qualität – {source}',
  qualityAccuracy:
    'Reihum zurückgehalten, werden {accuracy} der Äußerungen ihrem eigenen Intent zugeordnet; {atThreshold} erreichen auch den Schwellenwert {threshold}.',
  qualityTooFew:
    'Zu wenige Intents oder Äußerungen für eine Kreuzvalidierung: Fügen Sie mehr Beispielformulierungen hinzu.',
  qualityThreshold:
    'Kalibrierter Schwellenwert: {suggested}, den der Bot nutzt (die Definition setzt keinen). Erwartet laut Kreuzvalidierung: {routed} der Fragen zu seinen Intents richtig zugeordnet, {refused} der Texte zu anderem abgewiesen.',
  qualityThresholdOverridden:
    'Kalibrierter Schwellenwert: {suggested} (erwartet: {routed} richtig zugeordnet, {refused} der Texte zu anderem abgewiesen); der Bot nutzt {threshold} aus der Definition.',
  qualityNoThreshold: 'Zu wenige Äußerungen für einen kalibrierten Schwellenwert: Der Bot nutzt {threshold}.',
  qualityOnlyDefinition: 'Der Bot nutzt den Schwellenwert {threshold} aus der Definition.',
  qualityThin: 'Dünne Intents (weniger als fünf Äußerungen): {ids}.',
  qualityNoThin: 'Keine dünnen Intents.',
  qualityConfusable: 'Verwechselte Intents',
  colIntents: 'Intents',
  colTimes: 'Mal',
  qualityNoConfusable: 'Keine zwei Intents werden verwechselt.',
};
