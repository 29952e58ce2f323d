/**
 * The schema's help texts in German, keyed by the English text the server serves, so a changed
 * description shows in English until it is translated here (help-de.test.ts names it). A field written
 * as its JSON key (camelCase) reads as its label; the rest names labels as the form shows them.
 */
const helpDe: Readonly<Record<string, string>> = {
  'The JSON Schema editors validate this file with, e.g. https://your-bot.example.com/bot-definition.schema.json.':
    'Das JSON-Schema, mit dem Editoren diese Datei prüfen, z. B. https://your-bot.example.com/bot-definition.schema.json.',
  'The bot id: trigger addresses name it.': 'Die ID des Bots: Trigger-Adressen nennen sie.',
  'The bot name users see in the widget header.': 'Der Name des Bots, den Nutzer im Kopf des Chat-Fensters sehen.',
  'Picture the web chat shows in its header beside the name: an absolute http(s) URL.':
    'Bild, das der Web-Chat in seinem Kopf neben dem Namen zeigt: eine vollständige http(s)-Adresse.',
  'The language of the bot, e.g. "en" or "en-GB": intents and FAQ are read with its tokenisation, stopwords and stemming (en, de, fr, es, it, pl, pt, nl; others as English).':
    'Die Sprache des Bots, z. B. „en“ oder „de-DE“: Intents und FAQ werden nach ihren Regeln für Wörter, Füllwörter und Wortstämme gelesen (en, de, fr, es, it, pl, pt, nl; andere wie Englisch).',
  'Dialog a new user starts in.': 'Der Dialog, in dem ein neuer Nutzer beginnt.',
  "What the bot says when it cannot use the user's input.":
    'Was der Bot sagt, wenn er mit der Eingabe des Nutzers nichts anfangen kann.',
  "Lowest intent score (0..1) that routes free text to an intent's dialog. Omitted: the threshold the classifier calibrates for this bot when it loads (docs/understanding.md).":
    'Niedrigster Intent-Wert (0..1), ab dem freier Text in den Dialog eines Intents führt. Ohne Angabe: der Schwellenwert, den die Erkennung beim Laden für diesen Bot selbst bestimmt.',
  'Lowest FAQ match score (0..1, 1 = exact) that answers a question. Omitted: the threshold the FAQ matcher calibrates for this bot when it loads.':
    'Niedrigster FAQ-Trefferwert (0..1, 1 = genau gleich), ab dem eine Frage beantwortet wird. Ohne Angabe: der Schwellenwert, den der FAQ-Abgleich beim Laden für diesen Bot selbst bestimmt.',
  'Groups of words that mean the same to this bot\'s FAQ, e.g. [["parcel", "package"]]: a question in one word matches a phrasing in another.':
    'Gruppen von Wörtern, die für die FAQ dieses Bots dasselbe bedeuten, z. B. „Paket“ und „Sendung“: Eine Frage mit dem einen Wort passt zu einer Formulierung mit dem anderen. Jede Gruppe ist eine Liste in eckigen Klammern, und die Gruppen stehen in einer Liste darum.',
  'Most steps a run may take without input from outside (the user, the page, a trigger), across the turns it chains itself (integration results, failed email or SMS, waits under a second). Past it the run stops and the user hears fallbackText.':
    'Höchstzahl an Schritten, die ein Ablauf ohne Eingabe von außen (Nutzer, Seite, Trigger) gehen darf, auch über die Runden, die er selbst anstößt (Ergebnisse von Integrationen, fehlgeschlagene E-Mails oder SMS, Wartezeiten unter einer Sekunde). Darüber hinaus endet der Ablauf und der Nutzer bekommt den „Ersatztext“.',
  'Most integration calls, email, SMS and waits under a second in such a run: a loop through them cannot hammer anyone.':
    'Höchstzahl an Integrationsaufrufen, E-Mails, SMS und Wartezeiten unter einer Sekunde in einem solchen Ablauf: So kann eine Schleife niemanden mit Anfragen überfluten.',
  'Where a user goes whose position names a dialog or step this definition no longer has (a redeploy renamed or removed it): "dialogStart", the first step of their dialog while it exists, else recoveryDialog; "recoveryDialog", always there. The move is logged.':
    'Wohin ein Nutzer kommt, dessen Position einen Dialog oder Schritt nennt, den es nicht mehr gibt (eine neue Version hat ihn umbenannt oder entfernt): „Der Anfang ihres Dialogs“ – der erste Schritt seines Dialogs, solange es ihn gibt, sonst der „Wiederherstellungsdialog“; „Der Wiederherstellungsdialog“ – immer dieser. Der Wechsel wird protokolliert.',
  'The dialog recovery moves a stranded user to; startDialog when omitted.':
    'Der Dialog, in den die Wiederherstellung einen gestrandeten Nutzer bringt; ohne Angabe der „Startdialog“.',
  'Who the bot is and how it behaves.': 'Wer der Bot ist und wie er sich verhält.',
  'The user-data storages: what the userData export returns, one field each.':
    'Die Ablagen für Benutzerdaten: was der Export der Benutzerdaten liefert, je ein Feld.',
  'The dialog id: targets, buttons, intents and triggers name it.':
    'Die ID des Dialogs: Sprungziele, Schaltflächen, Intents und Trigger nennen sie.',
  'The step kind: message, input, condition, set, goto, wait, event, clearUserData, email, sms, nlp, faq, integration, linkChannels, end.':
    'Die Art des Schritts: Nachricht, Frage, Bedingung, Setzen, Springen, Warten, Ereignis, Benutzerdaten löschen, E-Mail, SMS, NLP, FAQ, Integration, Kanäle verknüpfen, Ende.',
  'The step id, unique in its dialog: targets (next, then, goto) name it.':
    'Die ID des Schritts, eindeutig in seinem Dialog: Sprungziele nennen sie.',
  'Step to run next in the same dialog; the following step when omitted.':
    'Der Schritt, der als Nächstes in diesem Dialog läuft; ohne Angabe der folgende Schritt.',
  'Says something: text, an image, buttons, quick replies or cards.':
    'Sagt etwas: Text, ein Bild, Schaltflächen, Schnellantworten oder Karten.',
  'Text with {{variable}} templates and the safe markdown subset (**bold**, *italic*, `code`, [links](https://…)).':
    'Text mit {{variable}}-Vorlagen und einfacher Formatierung (**fett**, *kursiv*, `Code`, [Links](https://…)).',
  'An image shown with the message.': 'Ein Bild, das mit der Nachricht gezeigt wird.',
  'The image address.': 'Die Adresse des Bildes.',
  'Said to screen reader users instead of the image.': 'Wird Screenreader-Nutzern statt des Bildes vorgelesen.',
  'Buttons under the text: a postback, a link or a dialog each.':
    'Schaltflächen unter dem Text: je eine Nutzlast, ein Link oder ein Dialog.',
  'Sends its payload as if typed.': 'Sendet ihre Nutzlast, als wäre sie getippt worden.',
  'What the button shows.': 'Was auf der Schaltfläche steht.',
  'What pressing it sends.': 'Was ein Klick darauf sendet.',
  'Opens a link.': 'Öffnet einen Link.',
  'The address; the user sees a tracked link ({base}/r/{signed token}) that records the click, then redirects here.':
    'Die Adresse; der Nutzer sieht einen verfolgten Link ({base}/r/{signiertes Token}), der den Klick zählt und dann hierher weiterleitet.',
  'Starts a dialog.': 'Startet einen Dialog.',
  'The dialog pressing it starts.': 'Der Dialog, den ein Klick darauf startet.',
  'Suggested answers shown until the user answers.':
    'Vorgeschlagene Antworten, die zu sehen sind, bis der Nutzer antwortet.',
  'What pressing it sends, as if the user had typed it.':
    'Was ein Klick darauf sendet, als hätte der Nutzer es getippt.',
  'A carousel of cards.': 'Ein Karussell aus Karten.',
  'The card title; templates allowed.': 'Der Titel der Karte; Vorlagen erlaubt.',
  'A line under the title.': 'Eine Zeile unter dem Titel.',
  'An image at the top of the card.': 'Ein Bild oben auf der Karte.',
  'Up to 5 buttons on the card.': 'Bis zu 5 Schaltflächen auf der Karte.',
  'A carousel built at run time from a variable holding a list of cards ({title, subtitle?, imageUrl?, imageAlt?, buttons?}), e.g. an integration step\'s output mapped with "@cards". Dots reach inside objects. At most 10 cards are shown.':
    'Ein Karussell, das beim Ablauf aus einer Variablen mit einer Liste von Karten gebaut wird ({title, subtitle?, imageUrl?, imageAlt?, buttons?}), z. B. die Ausgabe eines Integrationsschritts mit der Abbildung „@cards“. Punkte greifen in Objekte hinein. Höchstens 10 Karten werden gezeigt.',
  'Said instead of the carousel when the cardsFrom variable holds no cards.':
    'Wird statt des Karussells gesagt, wenn die Variable unter cardsFrom keine Karten enthält.',
  'Asks a question and waits for the answer, validated by inputType.':
    'Stellt eine Frage und wartet auf die Antwort, geprüft nach dem inputType.',
  'The question; templates allowed.': 'Die Frage; Vorlagen erlaubt.',
  'How the answer is validated: text, number, email, phone, choice or regex.':
    'Welche Art von Antwort die Frage erwartet; die Antwort wird danach geprüft.',
  'For inputType "regex": the answer must match this (JavaScript syntax, whole answer).':
    'Für den inputType „regex“: Die ganze Antwort muss zu diesem Muster passen (JavaScript-Schreibweise).',
  'For inputType "number": inclusive bounds.': 'Für den inputType „number“: die Grenzen, jeweils eingeschlossen.',
  'For inputType "number": the inclusive upper bound.': 'Für den inputType „number“: die obere Grenze, eingeschlossen.',
  'For inputType "choice": shown as quick replies; typed text matches a label or value, case-insensitively.':
    'Für den inputType „choice“: als Schnellantworten gezeigt; getippter Text passt zu einer Beschriftung oder einem Wert, ohne auf Groß- und Kleinschreibung zu achten.',
  'What the choice shows.': 'Was bei dieser Auswahl steht.',
  'What is saved and matched; the label when omitted.':
    'Was gespeichert und verglichen wird; ohne Angabe die Beschriftung.',
  "Where this answer leads; the step's `next` when omitted.":
    'Wohin diese Antwort führt; ohne Angabe „Dann weiter zu Schritt“ des Schritts.',
  'The dialog to go to.': 'Der Dialog, zu dem es geht.',
  'The step of that dialog to start at; its first step when omitted.':
    'Der Schritt dieses Dialogs, bei dem es beginnt; ohne Angabe sein erster Schritt.',
  'Said when an answer fails validation; the prompt when omitted.':
    'Wird gesagt, wenn eine Antwort die Prüfung nicht besteht; ohne Angabe die Frage.',
  'How often a failed answer is asked again.': 'Wie oft nach einer ungültigen Antwort erneut gefragt wird.',
  'Where to go when the retries are used up; the dialog ends with the fallback text when omitted.':
    'Wohin es geht, wenn alle Wiederholungen aufgebraucht sind; ohne Angabe endet der Dialog mit dem Ersatztext.',
  'Where the answer is kept: { "userData": field } or { "variable": name }.':
    'Wo die Antwort gespeichert wird: in einem Benutzerdatenfeld oder in einer Variablen.',
  'A field of userDataFields: kept with the user and exported.':
    'Ein Feld der userDataFields: wird beim Nutzer gespeichert und exportiert.',
  'A conversation variable: templates and conditions read it; not exported.':
    'Eine Variable des Gesprächs: Vorlagen und Bedingungen lesen sie; wird nicht exportiert.',
  'Suggested answers shown with the prompt.': 'Vorgeschlagene Antworten, die mit der Frage gezeigt werden.',
  'Branches on variables and user data: the first branch whose conditions hold wins.':
    'Verzweigt nach Variablen und Benutzerdaten: Der erste Zweig, dessen Bedingungen zutreffen, gewinnt.',
  'A variable or user-data field; dots reach inside objects, e.g. "triggerData.status".':
    'Eine Variable oder ein Benutzerdatenfeld; Punkte greifen in Objekte hinein, z. B. „triggerData.status“.',
  'equals, notEquals, empty, notEmpty, greater, less, contains, matches (a regex) or in (a list).':
    'gleich, ungleich, leer, nicht leer, größer, kleiner, enthält, passt zu (einem regulären Ausdruck) oder ist in (einer Liste).',
  'Not used by empty / notEmpty; a list for "in"; a regex source for "matches".':
    'Nicht nötig bei „ist leer“ und „ist nicht leer“; eine Liste für „ist einer von“; ein Muster (ein regulärer Ausdruck) für „passt zum Muster“.',
  'A condition, or a list of conditions that must all hold.':
    'Eine Bedingung oder eine Liste von Bedingungen, die alle zutreffen müssen.',
  'Where to go when it holds: a step id of this dialog, or { "dialog", "step"? }.':
    'Wohin es geht, wenn sie zutrifft: ein Schritt dieses Dialogs oder ein anderer Dialog (und dort ein Schritt).',
  'Tried in order; the first whose conditions all hold wins.':
    'Der Reihe nach geprüft; der erste, dessen Bedingungen alle zutreffen, gewinnt.',
  'Where to go when no branch holds; `next` (or the following step) when omitted.':
    'Wohin es geht, wenn kein Zweig zutrifft; ohne Angabe „Dann weiter zu Schritt“ (oder der folgende Schritt).',
  'Sets, unsets or appends to variables and user-data fields.':
    'Setzt, leert oder ergänzt Variablen und Benutzerdatenfelder.',
  'set, unset or append (to a list).': '„Auf einen Wert setzen“, „Leeren“ oder „An eine Liste anhängen“.',
  'The variable to change; name exactly one of variable / userData.':
    'Die Variable, die sich ändert; geben Sie genau eines an: „Variable“ oder „Benutzerdatenfeld“.',
  'A field of userDataFields to change.': 'Ein Feld der userDataFields, das sich ändert.',
  'A literal value…': 'Ein fester Wert …',
  '…or a template rendered to text.': '… oder eine Vorlage, die als Text eingesetzt wird.',
  'The changes, in order.': 'Die Änderungen, der Reihe nach.',
  'Goes to another dialog (or a step in it).': 'Springt in einen anderen Dialog (oder zu einem Schritt darin).',
  'Waits, then goes on: a durable timer, cancelled by what cancelOn names.':
    'Wartet und macht dann weiter: ein Zeitgeber, der auch einen Neustart übersteht; abgebrochen durch das, was unter cancelOn steht.',
  'How long to wait, e.g. "10m".': 'Wie lange gewartet wird, z. B. „10m“ (10 Minuten).',
  'An environment variable that, when set, replaces `duration` (e.g. a short timeout for the demo and tests).':
    'Eine Umgebungsvariable, die, wenn sie gesetzt ist, die „Dauer“ ersetzt (z. B. eine kurze Wartezeit für Demo und Tests).',
  'Where the conversation goes when the time is up.': 'Wohin das Gespräch geht, wenn die Zeit um ist.',
  'What cancels the timer.': 'Was die Wartezeit abbricht.',
  'Another dialog starts for the user (a trigger, a page, a button, an intent). Default true.':
    'Für den Nutzer beginnt ein anderer Dialog (durch einen Trigger, die Seite, eine Schaltfläche, einen Intent).',
  'The user writes or presses something. Default false.': 'Der Nutzer schreibt oder klickt etwas.',
  'Page events by name.': 'Ereignisse der Seite, nach Namen.',
  'false (default): the conversation rests here until the timer fires or something moves it; true: the timer runs and the next step follows at once.':
    'Nein (Standard): Das Gespräch ruht hier, bis die Wartezeit abläuft oder etwas es weiterbewegt; ja: Die Wartezeit läuft und der nächste Schritt folgt sofort.',
  'Sends an event to the page the widget is on.': 'Sendet ein Ereignis an die Seite, auf der das Chat-Fenster ist.',
  'The name the page\'s listener is registered for, e.g. "close-chat".':
    'Der Name, unter dem die Seite auf das Ereignis hört, z. B. „close-chat“.',
  'String values are templates.': 'Textwerte sind Vorlagen.',
  'Clears user-data fields (all when fields is omitted).':
    'Löscht Benutzerdatenfelder (alle, wenn keine „Felder“ angegeben sind).',
  'Fields to clear; every user-data field when omitted. The snapshot always holds every field.':
    'Die Felder, die gelöscht werden; ohne Angabe jedes Benutzerdatenfeld. Der Schnappschuss enthält immer jedes Feld.',
  'Sends an email (SMTP_URL); a failure follows onError.':
    'Sendet eine E-Mail über den Mailserver, mit dem der Server des Bots eingerichtet ist; schlägt das fehl, gilt onError.',
  'Comma-separated addresses; templates allowed.': 'Adressen, durch Kommas getrennt; Vorlagen erlaubt.',
  'Comma-separated copy addresses; templates allowed.': 'Adressen für Kopien, durch Kommas getrennt; Vorlagen erlaubt.',
  'The Reply-To address; templates allowed.': 'Die Antwortadresse (Reply-To); Vorlagen erlaubt.',
  'The subject; templates allowed.': 'Der Betreff; Vorlagen erlaubt.',
  'The plain-text body; templates allowed.': 'Der Inhalt als reiner Text; Vorlagen erlaubt.',
  'Where to go when the email cannot be sent (a follow-up turn); only logged when omitted.':
    'Wohin es geht, wenn die E-Mail nicht gesendet werden kann (in einer Folgerunde); ohne Angabe wird es nur protokolliert.',
  'Sends a text message (SMS_URL); a failure follows onError.':
    'Sendet eine SMS über den SMS-Dienst, mit dem der Server des Bots eingerichtet ist; schlägt das fehl, gilt onError.',
  'Comma-separated phone numbers (E.164); templates allowed.':
    'Telefonnummern (E.164), durch Kommas getrennt; Vorlagen erlaubt.',
  'The text; templates allowed.': 'Der Text; Vorlagen erlaubt.',
  'A URL appended to the message as a tracked link (clicks land in the URL tracker).':
    'Eine Adresse, die als verfolgter Link an die Nachricht angehängt wird (Klicks landen im Link-Tracker).',
  'Where to go when the SMS cannot be sent (a follow-up turn); only logged when omitted.':
    'Wohin es geht, wenn die SMS nicht gesendet werden kann (in einer Folgerunde); ohne Angabe wird es nur protokolliert.',
  'Waits for free text and starts the dialog of the intent it matches.':
    'Wartet auf freien Text und startet den Dialog des Intents, zu dem er passt.',
  'Said when the step is reached; the step then waits for free text.':
    'Wird gesagt, wenn der Schritt erreicht ist; danach wartet der Schritt auf freien Text.',
  'Lowest score an intent needs; settings.nlpThreshold when omitted.':
    'Niedrigster Wert, den ein Intent braucht; ohne Angabe die „NLP-Schwelle“ der Bot-Einstellungen.',
  'Where to go when no intent passes; the fallback text is said and the step waits again when omitted.':
    'Wohin es geht, wenn kein Intent passt; ohne Angabe wird der Ersatztext gesagt und der Schritt wartet erneut.',
  'Answers the question the user types from the FAQ pairs.':
    'Beantwortet die Frage, die der Nutzer tippt, aus den FAQ-Paaren.',
  'Said when the step is reached; the step then waits for a question.':
    'Wird gesagt, wenn der Schritt erreicht ist; danach wartet der Schritt auf eine Frage.',
  'Lowest match score (0..1, 1 = exact); settings.faqThreshold when omitted.':
    'Niedrigster Trefferwert (0..1, 1 = genau gleich); ohne Angabe die „FAQ-Schwelle“ der Bot-Einstellungen.',
  'Said when no question is close enough; the fallback text when omitted.':
    'Wird gesagt, wenn keine Frage nah genug ist; ohne Angabe der Ersatztext.',
  'Where to go when nothing matched; `next` when omitted.':
    'Wohin es geht, wenn nichts gepasst hat; ohne Angabe „Dann weiter zu Schritt“.',
  "Calls the customer's systems through an integration step type.":
    'Ruft die Systeme des Unternehmens über einen Integrations-Schritttyp auf.',
  'The integration step type: http, service, listUserEvents, createUser, sendTrackingEvent, queryDataset.':
    'Was der Schritt aufruft: einen der Schritttypen, die dieser Server anbietet. Unter der Liste sagt der gewählte, was er tut und was er braucht.',
  'A service of integrations.services (base URL + auth) the call goes to.':
    'Ein Dienst aus den Integrationen (Basis-URL und Anmeldung), an den der Aufruf geht.',
  "Static values or {{variable}} templates ({{userId}}, {{userData.email}}); coerced to the type's schema.":
    'Feste Werte oder {{variable}}-Vorlagen ({{userId}}, {{userData.email}}); in den Typ umgewandelt, den der Schritttyp erwartet.',
  "sync: the user waits (typing indicator) and the tree continues from the result; async: a durable job, the tree continues at once. The type's own when omitted.":
    '„Auf die Antwort warten“: Der Nutzer wartet (Tipp-Anzeige) und es geht mit dem Ergebnis weiter; „Im Hintergrund“: ein Auftrag im Hintergrund, es geht sofort weiter. Ohne Angabe das Verhalten des Schritttyps.',
  'Synchronous deadline in ms (5000 when omitted).':
    'Zeitlimit für den wartenden Aufruf in Millisekunden (ohne Angabe 5000).',
  'What a failed call does: "fatal" (the errorText as a fatal notice, the conversation ends), "dialog:<dialogId>" (go there) or "flag:<variable>" (the variable becomes true and "<variable>Error" the error kind; the tree continues and can branch on it).':
    'Was passiert, wenn der Aufruf fehlschlägt: „Mit dem Fehlertext enden“ (der Nutzer liest den „Fehlertext“ und das Gespräch endet), „Zu einem Dialog gehen“ (dieser Dialog beginnt) oder „Eine Markierung setzen und weitermachen“ (die Markierung wird wahr, eine Variable gleichen Namens mit Error am Ende sagt, was schiefging, und es geht weiter: Eine Bedingung kann die Markierung prüfen).',
  'The variable that receives the output (after the mapping).':
    'Die Variable, die das Ergebnis bekommt (nach der Abbildung).',
  'A JSONata expression over the output, or "@name" for a mapping the type offers (e.g. "@cards").':
    'Wie das Ergebnis umgeformt wird, bevor es gespeichert wird: eine Abbildung, die der Schritttyp anbietet, als „@“ und ihr Name (z. B. zeigt „@cards“ eine Liste als Karten), oder ein eigener Ausdruck (JSONata).',
  'Async only: attempts before the job is given up (6 when omitted).':
    'Nur „Im Hintergrund“: Versuche, bevor der Auftrag aufgegeben wird (ohne Angabe 6).',
  "The fatal notice's text; a general apology when omitted.":
    'Der Text der abschließenden Fehlermeldung; ohne Angabe eine allgemeine Entschuldigung.',
  'A {{variable}} template, filled when the step runs.':
    'Eine {{variable}}-Vorlage, ausgefüllt, wenn der Schritt läuft.',
  "A full web address (https://…), or a path under the step's service.":
    'Eine vollständige Web-Adresse (https://…) oder ein Pfad unter dem Dienst des Schritts.',
  "Where the data goes, e.g. an n8n Webhook node's production URL. Written as it is (no {{templates}}); give urlSecret instead when the address itself grants access.":
    'Wohin die Daten gehen, z. B. die Produktiv-Adresse eines Webhook-Knotens in n8n. Wird so verwendet, wie sie dasteht (ohne {{Vorlagen}}); geben Sie stattdessen urlSecret an, wenn schon die Adresse Zugang gewährt.',
  "Instead of the address: the secret holding it, for an address that itself grants access (a Zapier catch hook, a Make webhook); it is kept out of the integration log. Only the secret's name goes here, never the secret itself: a secret kept in the studio, or one the server is given when it starts.":
    'Statt der Adresse: das Geheimnis, das sie enthält, für eine Adresse, die selbst Zugang gewährt (ein Zapier-Catch-Hook, ein Make-Webhook); sie erscheint nicht im Integrationsprotokoll. Hier steht nur der Name des Geheimnisses, nie das Geheimnis selbst: eines, das im Studio hinterlegt ist, oder eines, das der Server beim Start erhält.',
  'The HTTP method.': 'Die HTTP-Methode.',
  'The data to send: a text, a number, a list or named values; {{variables}} and {{userData.x}} are filled in.':
    'Die Daten, die gesendet werden: ein Text, eine Zahl, eine Liste oder benannte Werte; {{Variablen}} und {{userData.x}} werden ausgefüllt.',
  "The secret to sign with, so the receiver can check that the data came from this bot and was not changed. The receiver is given the same secret; the integration guide shows how it checks the signature. Only the secret's name goes here, never the secret itself: a secret kept in the studio, or one the server is given when it starts.":
    'Das Geheimnis zum Signieren, damit der Empfänger prüfen kann, dass die Daten von diesem Bot kommen und unverändert sind. Der Empfänger bekommt dasselbe Geheimnis; wie er die Signatur prüft, zeigt die Anleitung zu Integrationen. Hier steht nur der Name des Geheimnisses, nie das Geheimnis selbst: eines, das im Studio hinterlegt ist, oder eines, das der Server beim Start erhält.',
  "More headers to send, by name (not sign-in ones, nor the signature's), e.g. x-source with the value chatbot.":
    'Weitere Header, die gesendet werden, nach Namen (keine für die Anmeldung und keine der Signatur), z. B. x-source mit dem Wert chatbot.',
  "The secret holding the service account's key file as Google gives it to download (its text, or the text in base64). Share the spreadsheet with the account's email address (client_email in that file). Only the secret's name goes here, never the secret itself: a secret kept in the studio, or one the server is given when it starts.":
    'Das Geheimnis mit der Schlüsseldatei des Dienstkontos, wie Google sie zum Herunterladen gibt (ihr Text oder der Text in Base64). Geben Sie die Tabelle für die E-Mail-Adresse des Kontos frei (client_email in dieser Datei). Hier steht nur der Name des Geheimnisses, nie das Geheimnis selbst: eines, das im Studio hinterlegt ist, oder eines, das der Server beim Start erhält.',
  "The spreadsheet's id: the part of its URL between /d/ and /edit.":
    'Die ID der Tabelle: der Teil ihrer Adresse zwischen /d/ und /edit.',
  "The Sheets API's address (for a proxy or a test double). Written as it is (no {{templates}}), since the credentials go there.":
    'Die Adresse der Sheets-API (für einen Proxy oder eine Test-Attrappe). Wird so verwendet, wie sie dasteht (ohne {{Vorlagen}}), weil die Zugangsdaten dorthin gehen.',
  'Where the table is, in A1 notation: "Leads" (a whole sheet) or "Leads!A:E"; the row goes after its last row.':
    'Wo die Tabelle steht, in A1-Schreibweise: „Leads“ (ein ganzes Blatt) oder „Leads!A:E“; die Zeile kommt nach ihrer letzten Zeile.',
  "The row's cells, left to right, e.g. {{userData.email}}, then {{userData.name}}, then chatbot.":
    'Die Zellen der Zeile, von links nach rechts, z. B. {{userData.email}}, dann {{userData.name}}, dann chatbot.',
  'USER_ENTERED reads values as if typed (numbers, dates, formulas); RAW stores them as they are.':
    '„Wie eingetippt (Formeln und Daten werden gelesen)“: Werte werden gelesen, als hätte sie jemand eingetippt (Zahlen, Datumsangaben, Formeln); „Unverändert“: Werte werden genau so gespeichert, wie sie gesendet werden.',
  'The table in A1 notation, header row first: "Orders" or "Orders!A1:F500".':
    'Die Tabelle in A1-Schreibweise, Kopfzeile zuerst: „Bestellungen“ oder „Bestellungen!A1:F500“.',
  'The header of the column to match, e.g. "Order number".':
    'Die Überschrift der Spalte, die verglichen wird, z. B. „Bestellnummer“.',
  'The value that column must hold, e.g. "{{orderNumber}}"; compared as text, spaces at the ends ignored.':
    'Der Wert, den diese Spalte haben muss, z. B. „{{orderNumber}}“; als Text verglichen, Leerzeichen an den Enden zählen nicht.',
  'Compare without regard to upper and lower case.': 'Ohne Rücksicht auf Groß- und Kleinschreibung vergleichen.',
  'Most rows returned.': 'Höchstzahl der gelieferten Zeilen.',
  "The secret holding an incoming webhook URL (https://hooks.slack.com/services/…), which posts to the channel chosen when the webhook was made. Only the secret's name goes here, never the secret itself: a secret kept in the studio, or one the server is given when it starts.":
    'Das Geheimnis mit der Adresse eines eingehenden Webhooks (https://hooks.slack.com/services/…), der in den Kanal schreibt, der beim Anlegen des Webhooks gewählt wurde. Hier steht nur der Name des Geheimnisses, nie das Geheimnis selbst: eines, das im Studio hinterlegt ist, oder eines, das der Server beim Start erhält.',
  "Instead of a webhook: the secret holding a bot token (xoxb-…) with the chat:write scope. Only the secret's name goes here, never the secret itself: a secret kept in the studio, or one the server is given when it starts.":
    'Statt eines Webhooks: das Geheimnis mit einem Bot-Token (xoxb-…) mit dem Scope chat:write. Hier steht nur der Name des Geheimnisses, nie das Geheimnis selbst: eines, das im Studio hinterlegt ist, oder eines, das der Server beim Start erhält.',
  'With tokenSecret: the channel to post to, by id (C0123ABCDEF) or name (#support); the bot must be in it.':
    'Mit tokenSecret: der Kanal, in den geschrieben wird, nach ID (C0123ABCDEF) oder Name (#support); der Bot muss darin Mitglied sein.',
  "The message, in Slack's formatting (*bold*, _italic_); {{variables}} are filled in. Also the notification's text when blocks are given.":
    'Die Nachricht, mit der Formatierung von Slack (*fett*, _kursiv_); {{Variablen}} werden ausgefüllt. Auch der Text der Benachrichtigung, wenn Blöcke angegeben sind.',
  'Optional Block Kit blocks for a richer layout.': 'Blöcke im Block Kit für eine reichere Gestaltung, nach Wunsch.',
  'With tokenSecret: the timestamp id (ts) of a message to reply to in its thread.':
    'Mit tokenSecret: die Zeitstempel-ID (ts) einer Nachricht, auf die in ihrem Thread geantwortet wird.',
  "The Slack Web API's address (for a proxy or a test double). Written as it is (no {{templates}}), since the credentials go there.":
    'Die Adresse der Slack Web API (für einen Proxy oder eine Test-Attrappe). Wird so verwendet, wie sie dasteht (ohne {{Vorlagen}}), weil die Zugangsdaten dorthin gehen.',
  "The secret holding the private app's access token (pat-…), with the crm.objects.contacts.write scope. Only the secret's name goes here, never the secret itself: a secret kept in the studio, or one the server is given when it starts.":
    'Das Geheimnis mit dem Zugriffstoken der privaten App (pat-…), mit dem Scope crm.objects.contacts.write. Hier steht nur der Name des Geheimnisses, nie das Geheimnis selbst: eines, das im Studio hinterlegt ist, oder eines, das der Server beim Start erhält.',
  "The contact's email: how the contact is found, and set on a new one.":
    'Die E-Mail-Adresse des Kontakts: Daran wird der Kontakt gefunden, und ein neuer bekommt sie.',
  'Contact properties by their internal name in HubSpot, e.g. firstname set to {{name}} and phone to {{phone}}; values are sent as text; an empty value clears one.':
    'Eigenschaften des Kontakts nach ihrem internen Namen in HubSpot, z. B. firstname auf {{name}} und phone auf {{phone}}; Werte werden als Text gesendet; ein leerer Wert leert eine Eigenschaft.',
  "HubSpot's API address (for a proxy or a test double). Written as it is (no {{templates}}), since the credentials go there.":
    'Die Adresse der HubSpot-API (für einen Proxy oder eine Test-Attrappe). Wird so verwendet, wie sie dasteht (ohne {{Vorlagen}}), weil die Zugangsdaten dorthin gehen.',
  'Your Zendesk subdomain: "acme" for https://acme.zendesk.com.':
    'Ihre Zendesk-Subdomain: „acme“ für https://acme.zendesk.com.',
  'Instead of subdomain: the Zendesk address (a host mapped domain, a proxy or a test double). Written as it is (no {{templates}}), since the credentials go there.':
    'Statt der Subdomain: die Zendesk-Adresse (eine eigene Domain, ein Proxy oder eine Test-Attrappe). Wird so verwendet, wie sie dasteht (ohne {{Vorlagen}}), weil die Zugangsdaten dorthin gehen.',
  'The email of the Zendesk agent the API token belongs to.':
    'Die E-Mail-Adresse des Zendesk-Agenten, dem das API-Token gehört.',
  "The secret holding the API token (Admin Center > Apps and integrations > APIs > Zendesk API). Only the secret's name goes here, never the secret itself: a secret kept in the studio, or one the server is given when it starts.":
    'Das Geheimnis mit dem API-Token (Admin Center > Apps und Integrationen > APIs > Zendesk API). Hier steht nur der Name des Geheimnisses, nie das Geheimnis selbst: eines, das im Studio hinterlegt ist, oder eines, das der Server beim Start erhält.',
  "The ticket's subject; {{variables}} are filled in.": 'Der Betreff des Tickets; {{Variablen}} werden ausgefüllt.',
  "The ticket's first comment (what the customer needs).": 'Der erste Kommentar des Tickets (was der Kunde braucht).',
  'Who the ticket is for; Zendesk creates the user when new. The agent is the requester when left out.':
    'Für wen das Ticket ist; Zendesk legt die Person an, wenn sie neu ist. Ohne Angabe ist der Agent der Anfragende.',
  "The requester's name, for a new user.": 'Der Name der anfragenden Person, für eine neue Person.',
  "The ticket's priority.": 'Die Priorität des Tickets.',
  "The ticket's type.": 'Der Typ des Tickets.',
  'Tags to put on the ticket.': 'Tags, die das Ticket bekommt.',
  'Sent as Idempotency-Key, so a call tried again (a step run in the background) makes no second ticket, e.g. "{{userId}}-refund".':
    'Wird als Idempotency-Key gesendet, damit ein erneut versuchter Aufruf (ein Schritt im Hintergrund) kein zweites Ticket anlegt, z. B. „{{userId}}-erstattung“.',
  "The API's address up to /chat/completions: OpenAI https://api.openai.com/v1/, Ollama http://127.0.0.1:11434/v1/, vLLM http://<host>:8000/v1/, llama.cpp http://<host>:8080/v1/. Written as it is (no {{templates}}), since the credentials go there.":
    'Die Adresse der API bis vor /chat/completions: OpenAI https://api.openai.com/v1/, Ollama http://127.0.0.1:11434/v1/, vLLM http://<host>:8000/v1/, llama.cpp http://<host>:8080/v1/. Wird so verwendet, wie sie dasteht (ohne {{Vorlagen}}), weil die Zugangsdaten dorthin gehen.',
  "The secret holding the API key, sent as a bearer token; leave it out for a local server that asks for none. Only the secret's name goes here, never the secret itself: a secret kept in the studio, or one the server is given when it starts.":
    'Das Geheimnis mit dem API-Schlüssel, als Bearer-Token gesendet; lassen Sie es weg bei einem lokalen Server, der keinen verlangt. Hier steht nur der Name des Geheimnisses, nie das Geheimnis selbst: eines, das im Studio hinterlegt ist, oder eines, das der Server beim Start erhält.',
  'The model, e.g. "gpt-4o-mini", or a local one such as "llama3.1:8b".':
    'Das Modell, z. B. „gpt-4o-mini“, oder ein lokales wie „llama3.1:8b“.',
  'Instructions for the model (the system message); {{variables}} are filled in.':
    'Anweisungen für das Modell (die Systemnachricht); {{Variablen}} werden ausgefüllt.',
  'The user message: a template, e.g. "Answer in one sentence: {{question}}".':
    'Die Nachricht des Nutzers: eine Vorlage, z. B. „Antworte in einem Satz: {{question}}“.',
  "Randomness, 0 (steady) to 2; the server's default when left out.":
    'Zufälligkeit, von 0 (gleichbleibend) bis 2; ohne Angabe der Standard des Servers.',
  'Most tokens the answer may have.': 'Höchstzahl an Tokens, die die Antwort haben darf.',
  "How maxTokens is sent: max_tokens (local servers and most models) or max_completion_tokens (OpenAI's reasoning models, which refuse max_tokens).":
    'Wie maxTokens gesendet wird: max_tokens (lokale Server und die meisten Modelle) oder max_completion_tokens (die Reasoning-Modelle von OpenAI, die max_tokens ablehnen).',
  'A schema the answer must fit (structured output): the answer, read into that shape, becomes its data, e.g. {{answer.data.city}}. With strictSchema, OpenAI needs every property required and additionalProperties false.':
    'Ein Schema, zu dem die Antwort passen muss (strukturierte Ausgabe): Die Antwort, in diese Form gelesen, steht dann unter data, z. B. {{answer.data.city}}. Mit strictSchema verlangt OpenAI, dass jede Eigenschaft Pflicht ist und additionalProperties false.',
  "The schema's name, as the API asks for one.": 'Der Name des Schemas, weil die API einen verlangt.',
  "Ask the server to hold the answer to the schema exactly (OpenAI's strict mode).":
    'Den Server bitten, sich genau an das Schema zu halten (der strikte Modus von OpenAI).',
  'Most tokens one user may spend a day (UTC) on this step type, over all its steps; past it the step fails as rate_limited.':
    'Höchstzahl an Tokens, die ein Nutzer an einem Tag (UTC) mit diesem Schritttyp verbrauchen darf, über alle seine Schritte; darüber hinaus schlägt der Schritt als rate_limited fehl.',
  'Shows a one-time code to send on another channel; once it arrives there, both are one conversation.':
    'Zeigt einen Einmal-Code, den der Nutzer auf einem anderen Kanal sendet; sobald er dort ankommt, sind beide ein Gespräch.',
  'What the bot says with the code; {{linkCode}} is the one-time code, e.g. "Send {{linkCode}} to us on WhatsApp within 10 minutes." Other templates allowed.':
    'Was der Bot mit dem Code sagt; {{linkCode}} ist der Einmal-Code, z. B. „Senden Sie uns {{linkCode}} innerhalb von 10 Minuten per WhatsApp.“ Andere Vorlagen erlaubt.',
  'How long the code works, in minutes (10 when omitted). It works once.':
    'Wie lange der Code gilt, in Minuten (ohne Angabe 10). Er gilt nur einmal.',
  'Step to run once the code arrived on the other channel; the following step when omitted.':
    'Der Schritt, der läuft, sobald der Code auf dem anderen Kanal angekommen ist; ohne Angabe der folgende Schritt.',
  'Where to go when the user writes something else on this channel instead; `next` (unlinked) when omitted.':
    'Wohin es geht, wenn der Nutzer auf diesem Kanal stattdessen etwas anderes schreibt; ohne Angabe „Dann weiter zu Schritt“ (nicht verknüpft).',
  'Ends the dialog; the conversation rests until the user writes.':
    'Beendet den Dialog; das Gespräch ruht, bis der Nutzer schreibt.',
  'The steps, run in order unless a step says where to go.':
    'Die Schritte, der Reihe nach ausgeführt, außer ein Schritt sagt, wohin es geht.',
  'For a dialog a trigger or timer may start: the approved WhatsApp template sent instead of its opening messages when the user last wrote more than 24 hours ago (docs/channels.md). Without it, such a trigger is refused with 409.':
    'Für einen Dialog, den ein Trigger oder eine Wartezeit starten kann: die freigegebene WhatsApp-Vorlage, die statt seiner ersten Nachrichten gesendet wird, wenn der Nutzer zuletzt vor mehr als 24 Stunden geschrieben hat. Ohne sie wird ein solcher Trigger abgelehnt.',
  'The template\'s name as approved in WhatsApp Manager, e.g. "order_shipped".':
    'Der Name der Vorlage, wie sie im WhatsApp Manager freigegeben ist, z. B. „order_shipped“.',
  'The language (and locale) of the approved translation to send, e.g. "en_US".':
    'Die Sprache (und Region) der freigegebenen Übersetzung, die gesendet wird, z. B. „de_DE“.',
  "The body's parameters {{1}}, {{2}}, … in order, each a text with {{variable}} templates filled from the user's variables and user data (a trigger's body is triggerData).":
    'Die Parameter des Inhalts {{1}}, {{2}}, … der Reihe nach, jeder ein Text mit {{variable}}-Vorlagen, ausgefüllt aus den Variablen und Benutzerdaten des Nutzers (bei einem Trigger ist der Inhalt triggerData).',
  "The same template's Content SID at Twilio (Content Template Builder), for WhatsApp through Twilio: its variables {{1}}, {{2}}, … get the parameters in order. Without it, WhatsApp through Twilio refuses such triggers.":
    'Die Content SID derselben Vorlage bei Twilio (Content Template Builder), für WhatsApp über Twilio: Ihre Variablen {{1}}, {{2}}, … bekommen die Parameter der Reihe nach. Ohne sie lehnt WhatsApp über Twilio solche Trigger ab.',
  'The dialogs: named lists of steps.': 'Die Dialoge: benannte Listen von Schritten.',
  'Intents: free text classified to one starts its dialog.':
    'Intents: Freier Text, der einem Intent zugeordnet wird, startet dessen Dialog.',
  'The intent id.': 'Die ID des Intents.',
  'The dialog a classified utterance starts.': 'Der Dialog, den eine zugeordnete Äußerung startet.',
  'Example phrasings; the classifier trains on them at start-up.':
    'Beispiel-Formulierungen; die Erkennung lernt beim Start daraus.',
  'Question and answer pairs faq steps answer from.': 'Frage-Antwort-Paare, aus denen FAQ-Schritte antworten.',
  'The FAQ pair id.': 'Die ID des FAQ-Paars.',
  "Phrasings of the question (one is enough; more widen what it matches); the user's question is matched against each by meaning of words, not characters.":
    'Formulierungen der Frage (eine genügt; mehr erweitern, was passt); die Frage des Nutzers wird mit jeder nach der Bedeutung der Wörter verglichen, nicht nach Buchstaben.',
  'The answer; templates and the safe markdown subset allowed.':
    'Die Antwort; Vorlagen und einfache Formatierung erlaubt.',
  'The services integration steps call (base URL and sign-in) and background datasets. A key or password is named (a studio secret or an environment variable), never written here.':
    'Die Dienste, die Integrationsschritte aufrufen (Basis-URL und Anmeldung), und Datensätze im Hintergrund. Ein Schlüssel oder Passwort wird nur beim Namen genannt (ein Geheimnis im Studio oder eine Umgebungsvariable), nie hier hineingeschrieben.',
  'The services integration steps call, by name: each a base URL and how calls sign in.':
    'Die Dienste, die Integrationsschritte aufrufen, nach Namen: je eine Basis-URL und wie sich Aufrufe anmelden.',
  "The address the service's calls start with, e.g. https://api.example.com/v1: an integration step's endpoint is a path under it.":
    'Die Adresse, mit der die Aufrufe des Dienstes beginnen, z. B. https://api.example.com/v1: Der Endpunkt eines Integrationsschritts ist ein Pfad darunter.',
  'A secret or environment variable that, when set, replaces the base URL (the same bot against a test or demo system).':
    'Ein Geheimnis oder eine Umgebungsvariable, die, wenn gesetzt, die Basis-URL ersetzt (derselbe Bot gegen ein Test- oder Demosystem).',
  'How calls to the service sign in. Keys and passwords are named secrets, never written here.':
    'Wie sich Aufrufe beim Dienst anmelden. Schlüssel und Passwörter sind benannte Geheimnisse und werden nie hier hineingeschrieben.',
  'No sign-in': 'Keine Anmeldung',
  'User name and password (HTTP Basic)': 'Benutzername und Passwort (HTTP Basic)',
  'The user name the service knows.': 'Der Benutzername, den der Dienst kennt.',
  'The secret holding the password.': 'Das Geheimnis mit dem Passwort.',
  'A Bearer token from a secret': 'Ein Bearer-Token aus einem Geheimnis',
  'The secret holding the token, sent as "Authorization: Bearer …".':
    'Das Geheimnis mit dem Token, gesendet als „Authorization: Bearer …“.',
  "The visitor's own token, passed by the web page": 'Das eigene Token des Besuchers, von der Webseite übergeben',
  "The conversation variable the page's token is kept in.":
    'Die Variable des Gesprächs, in der das Token der Seite steht.',
  'OAuth 2 client credentials': 'OAuth-2-Client-Zugangsdaten',
  'Where the service hands out access tokens.': 'Wo der Dienst Zugriffstokens ausgibt.',
  'The client id the service gave this bot.': 'Die Client-ID, die der Dienst diesem Bot gegeben hat.',
  'The secret holding the client secret.': 'Das Geheimnis mit dem Client-Secret.',
  'The scopes to ask for, separated by spaces.': 'Die Scopes, die angefragt werden, durch Leerzeichen getrennt.',
  'The API the token is for, when the service asks for one.':
    'Die API, für die das Token gilt, wenn der Dienst danach fragt.',
  'Where the client id and secret go: the Authorization header (the standard) or the form body.':
    'Wohin Client-ID und Secret kommen: in den Authorization-Header (der Standard) oder in den Formular-Inhalt.',
  'Lists the bot reads locally, filled from a service in the background or pushed to it.':
    'Listen, die der Bot bei sich liest, im Hintergrund von einem Dienst gefüllt oder ihm zugeschickt.',
  'The name steps read the dataset by.': 'Der Name, unter dem Schritte den Datensatz lesen.',
  'Where the rows are pulled from; unset, they are pushed to the bot.':
    'Woher die Zeilen abgerufen werden; ohne Angabe werden sie dem Bot zugeschickt.',
  'The service the rows come from; the address is then a path under its base URL.':
    'Der Dienst, von dem die Zeilen kommen; die Adresse ist dann ein Pfad unter seiner Basis-URL.',
  'Where the rows are read: a path under the service, or a whole address.':
    'Wo die Zeilen gelesen werden: ein Pfad unter dem Dienst oder eine vollständige Adresse.',
  'A JSONata expression picking the list of rows from the answer; unset, the answer is the list.':
    'Ein JSONata-Ausdruck, der die Liste der Zeilen aus der Antwort holt; ohne Angabe ist die Antwort die Liste.',
  'Seconds between two pulls (at least 10); unset, no periodic pull.':
    'Sekunden zwischen zwei Abrufen (mindestens 10); ohne Angabe kein regelmäßiger Abruf.',
  'Where each row keeps its id, tags, latitude and longitude (a field name or a dotted path).':
    'Wo jede Zeile ihre ID, Tags, Breiten- und Längengrad hat (ein Feldname oder ein Pfad mit Punkten).',
  'Where a row keeps its id.': 'Wo eine Zeile ihre ID hat.',
  'Where a row keeps its tags.': 'Wo eine Zeile ihre Tags hat.',
  'Where a row keeps its latitude.': 'Wo eine Zeile ihren Breitengrad hat.',
  'Where a row keeps its longitude.': 'Wo eine Zeile ihren Längengrad hat.',
  "The bot's own integration step types: module files (.mjs/.js), relative to this file, each default-exporting a step type (docs/integrations.md). Loaded at start-up.":
    'Die eigenen Integrations-Schritttypen des Bots: Moduldateien (.mjs/.js), relativ zu dieser Datei, jede mit einem Schritttyp als Default-Export (docs/integrations.md). Werden beim Start geladen.',
  'Page events that start a dialog.': 'Ereignisse der Seite, die einen Dialog starten.',
  'The event name the page sends.': 'Der Name des Ereignisses, das die Seite sendet.',
  'Starts this dialog when the event arrives.': 'Startet diesen Dialog, wenn das Ereignis eintrifft.',
  'One bot: settings, user-data fields, dialogs of steps, intents, FAQ pairs, integrations. See docs/bot-definition.md.':
    'Ein Bot: Einstellungen, Benutzerdatenfelder, Dialoge aus Schritten, Intents, FAQ-Paare, Integrationen. Siehe docs/bot-definition.md.',
  "Sends a request to any web address, or to a path under the step's service, with the method, headers, query parameters and body given here; the result holds the answer's status, headers and content.":
    'Sendet eine Anfrage an eine beliebige Web-Adresse oder an einen Pfad unter dem Dienst des Schritts, mit der Methode, den Headern, Abfrageparametern und dem Inhalt, die hier stehen; das Ergebnis enthält Status, Header und Inhalt der Antwort.',
  "Calls an action of a service set up in the bot's settings: its address is the service's own, then the module and the action; the result holds the answer's status and content.":
    'Ruft eine Aktion eines Dienstes aus den Bot-Einstellungen auf: die Adresse ist die des Dienstes, dann Modul und Aktion; das Ergebnis enthält Status und Inhalt der Antwort.',
  'Lists a user\'s events, each with its id, name and date; the mapping "cards" shows them as a carousel of cards.':
    'Listet die Ereignisse eines Nutzers, jedes mit ID, Name und Datum; die Abbildung „cards“ zeigt sie als Karussell aus Karten.',
  'Creates a user in the external system and returns the new id.':
    'Legt einen Nutzer im externen System an und liefert die neue ID.',
  'Sends a tracking event; the conversation does not wait for it (it is sent in the background, and again if it fails).':
    'Sendet ein Tracking-Ereignis; das Gespräch wartet nicht darauf (es wird im Hintergrund gesendet, bei Fehlern erneut).',
  'Finds rows of a dataset the server keeps up to date: those carrying every tag given, those within a distance of a place, or both; nearest first.':
    'Findet Zeilen eines Datensatzes, den der Server aktuell hält: solche mit jedem angegebenen Tag, solche im Umkreis eines Orts oder beides; die nächsten zuerst.',
  "Sends data to a web address (an n8n, Zapier or Make webhook, or your own), signed when a signing secret is chosen, so the receiver can tell it came from this bot; the result holds the answer's status and content.":
    'Sendet Daten an eine Web-Adresse (einen Webhook von n8n, Zapier oder Make oder Ihre eigene), signiert, wenn ein Signatur-Geheimnis gewählt ist, damit der Empfänger erkennt, dass sie von diesem Bot kommen; das Ergebnis enthält Status und Inhalt der Antwort.',
  'Adds a row to a table in Google Sheets, signed in as a Google service account; the result names the cells written.':
    'Fügt eine Zeile an eine Tabelle in Google Sheets an, angemeldet als Google-Dienstkonto; das Ergebnis nennt die geschriebenen Zellen.',
  'Looks up the rows of a table in Google Sheets whose column holds a value, signed in as a Google service account; the result holds each row by its column headers, and how many matched.':
    'Sucht die Zeilen einer Tabelle in Google Sheets, deren Spalte einen Wert enthält, angemeldet als Google-Dienstkonto; das Ergebnis enthält jede Zeile nach ihren Spaltenüberschriften und wie viele passten.',
  'Posts a message to Slack: through an incoming webhook (webhookUrlSecret), or with a bot token (tokenSecret) to a channel; the result names the message, for replies in its thread.':
    'Schreibt eine Nachricht in Slack: über einen eingehenden Webhook (webhookUrlSecret) oder mit einem Bot-Token (tokenSecret) in einen Kanal; das Ergebnis nennt die Nachricht, für Antworten in ihrem Thread.',
  "Creates a contact in HubSpot, or updates the one with this email address, signed in with a private app's token; the result is the contact's id and whether it is new.":
    'Legt einen Kontakt in HubSpot an oder ändert den mit dieser E-Mail-Adresse, angemeldet mit dem Token einer privaten App; das Ergebnis ist die ID des Kontakts und ob er neu ist.',
  "Creates a ticket in Zendesk Support, signed in with an agent's email address and API token; the result is the ticket's number, address and status.":
    'Legt ein Ticket in Zendesk Support an, angemeldet mit der E-Mail-Adresse und dem API-Token eines Agenten; das Ergebnis ist Nummer, Adresse und Status des Tickets.',
  "Asks a language model, through any server that speaks OpenAI's chat API (OpenAI itself, or Ollama, vLLM or llama.cpp run locally), a prompt filled from the conversation; the answer can be held to a shape, and each user has a daily budget of tokens. The result holds the answer's text, and its data when a shape is given.":
    'Fragt ein Sprachmodell über einen Server, der die Chat-API von OpenAI spricht (OpenAI selbst oder lokal betrieben mit Ollama, vLLM oder llama.cpp), mit einer Anweisung, aus dem Gespräch ausgefüllt; die Antwort kann an eine Form gebunden werden, und jeder Nutzer hat ein tägliches Budget an Tokens. Das Ergebnis enthält den Text der Antwort und, wenn eine Form angegeben ist, ihre Daten.',
};

export default helpDe;
