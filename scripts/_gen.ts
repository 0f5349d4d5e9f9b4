import { generalizeSubject } from '../src/core/generalize.js';
import { generalVocabulary } from '../src/abstraction/vocabulary.js';
const v = generalVocabulary();
for (const s of process.argv.slice(2)) console.log(JSON.stringify(generalizeSubject(s, v, ['dateutil', 'dateutil', 'dateutil/dateutil']).text));
