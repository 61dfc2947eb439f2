import RichText

/// German agreement: the head noun (the last noun before a preposition) takes the span's number,
/// its gender and plural come from the lexicon or from the last part of a compound, and the
/// determiners and adjectives before it are declined — strong, weak or mixed by the determiner, in
/// the case a hint states or the sentence gives (see ``grammaticalCase(of:rule:context:)``).
struct GermanGrammar: LanguageGrammar {
    let language = "de"
    let lexicon: Lexicon
    private let nouns: GermanNouns

    init(lexicon: Lexicon) {
        self.lexicon = lexicon
        nouns = GermanNouns(lexicon: lexicon)
    }

    /// Prepositions and the case they govern, contractions with the article (*zum*, *im*, *ins*)
    /// too. Two-way prepositions (*in*, *auf*…) are not here: their case is the meaning's (*auf den
    /// Tisch*, *auf dem Tisch*), see ``twoWayPrepositions``.
    static let prepositionCases: WordTable<GermanCase> = {
        var table = WordTable<GermanCase>()
        for word in [
            "mit", "aus", "bei", "nach", "von", "zu", "seit", "gegenüber", "außer", "samt", "nebst", "zum", "zur",
            "beim", "vom", "im", "am",
        ] {
            table[word] = .dative
        }
        for word in ["für", "ohne", "durch", "gegen", "um", "bis", "ins", "ans", "aufs", "pro", "je"] {
            table[word] = .accusative
        }
        for word in ["wegen", "während", "statt", "anstatt", "trotz", "inklusive", "exklusive", "innerhalb"] {
            table[word] = .genitive
        }
        return table
    }()
    /// Prepositions that take the accusative for a direction and the dative for a place: the case
    /// they govern is read from the words as written, else they are left (``writtenCase``).
    static let twoWayPrepositions: WordSet = ["in", "an", "auf", "über", "unter", "vor", "hinter", "neben", "zwischen"]

    static func isPreposition(_ lower: String) -> Bool {
        prepositionCases[lower] != nil || twoWayPrepositions.contains(lower)
    }

    /// A preposition and the definite article (dative *dem*, *der*, accusative *das*) written as one
    /// word, and back.
    static let contractionParts: WordTable<(preposition: String, article: String)> = [
        "zum": ("zu", "dem"), "zur": ("zu", "der"), "vom": ("von", "dem"), "beim": ("bei", "dem"),
        "im": ("in", "dem"), "am": ("an", "dem"), "ins": ("in", "das"), "ans": ("an", "das"), "aufs": ("auf", "das"),
    ]

    static let conjunctions: WordSet = ["und", "oder", "sowie", "&"]
    /// Containers and measures, which head the noun after them (*2 Tassen Kaffee*).
    static let measureNouns: WordSet = [
        "tasse", "glas", "becher", "flasche", "stück", "portion", "kanne", "kännchen", "teller", "scheibe", "kugel",
        "schale", "dose", "packung", "tüte", "liter", "kilo", "gramm", "karaffe", "krug", "schälchen", "schüssel",
        "schuss", "prise", "spritzer", "schluck", "kugeln", "scheibe", "stange", "laib", "beutel", "löffel",
        "teelöffel", "esslöffel", "schnitte", "ecke", "riegel", "pott", "humpen", "maß", "pint", "shot",
    ]
    /// Forms of *sein*, *werden*, *bleiben*: what follows them is in the nominative (*Hier ist ein …*).
    static let copulas: WordSet = [
        "ist", "sind", "war", "waren", "wird", "werden", "wurde", "wurden", "bleibt", "bleiben", "sei", "heißt",
        "bist", "bin", "seid",
    ]
    /// Words that give what follows the case of what it is compared with: the nominative only when
    /// they open the clause (*Als Neukunde erhalten Sie*); after other words it is not known (*mehr
    /// als einen Kaffee*, *Klassiker wie den Käsekuchen*).
    static let comparisons: WordSet = ["als", "wie"]
    /// Verb forms whose object follows them, in the accusative (*Möchten Sie einen …*, *Probier den …*).
    static let accusativeVerbs: WordSet = [
        "möchte", "möchten", "möchtest", "möchtet", "nimm", "nehmen", "nehme", "nimmst", "nehmt", "bestelle",
        "bestellen", "bestellst", "bestell", "probier", "probiere", "probieren", "probierst", "probiert", "hol",
        "hole", "holen", "holst", "gönn", "gönne", "gönnen", "gönnst", "kauf", "kaufe", "kaufen", "kaufst", "hast",
        "habe", "haben", "hat", "habt", "gibt", "bekommst", "bekomme", "bekommen", "bekommt", "erhalten", "erhältst",
        "erhält", "genieß", "genieße", "genießen", "genießt", "teste", "testen", "empfehlen", "empfehle",
        "empfiehlt", "wähle", "wählen", "wählst", "wähl", "magst", "mag", "mögen", "liebst", "liebe", "lieben",
        "reservieren", "reserviere", "tausche", "tauschen", "suchst", "suche", "suchen", "brauchst", "brauche",
        "brauchen", "braucht", "kennst", "kenne", "kennen", "trink", "trinke", "trinken", "trinkst", "iss", "esse",
        "essen", "isst", "verschenke", "verschenken", "bringe", "bringen", "bringt", "bringst", "serviere",
        "servieren", "servieren", "entdecke", "entdecken", "gewinne", "gewinnen", "gewinnst", "füge", "füg",
        "fügen", "sichere", "sichern", "sichert", "schnapp", "schnappe", "schnappen", "gönnt", "nehmt", "holt",
        "hätte", "hätten", "hättest", "kriege", "kriegen", "kriegst", "krieg",
    ]
    /// Pronouns that are a verb's subject.
    static let verbSubjects: WordSet = ["ich", "du", "wir", "ihr", "sie", "er", "es", "man"]

    /// Words between a verb and its object that do not change the case (*Möchten Sie noch …*).
    static let transparentWords: WordSet = [
        "sie", "du", "ihr", "wir", "ich", "es", "uns", "dir", "dich", "ihnen", "mir", "euch", "noch", "heute",
        "gern", "gerne", "bitte", "dazu", "jetzt", "auch", "nur", "schon", "doch", "mal", "hier", "direkt",
        "gleich", "sofort", "einfach", "wieder", "zusätzlich", "außerdem", "morgen", "täglich", "immer",
    ]
    /// Pronouns that stand between a copula and its complement (*Sind Sie ein neuer Kunde?*).
    static let subjectWords: WordSet = ["sie", "du", "er", "es", "das", "dies", "ihr", "wir"]
    /// Finite verbs that, right after a span starting its clause, make the span their subject.
    static let finiteVerbs: WordSet = [
        "ist", "sind", "war", "waren", "wird", "werden", "wurde", "wurden", "bleibt", "bleiben", "kostet",
        "kosten", "liegt", "liegen", "steht", "stehen", "kommt", "kommen", "geht", "gehen", "hat", "haben",
        "enthält", "enthalten", "passt", "passen", "schmeckt", "schmecken", "fehlt", "fehlen", "wartet", "warten",
        "gibt", "gab", "ist's",
    ]
    /// Nouns for people with a feminine in *-in* or another form (*Kunde* → *Kundin*).
    static let personNouns = PersonNouns([
        "kunde": "kundin", "gast": "gast", "freund": "freundin", "nutzer": "nutzerin", "besucher": "besucherin",
        "mitglied": "mitglied", "abonnent": "abonnentin", "gewinner": "gewinnerin", "koch": "köchin",
        "kellner": "kellnerin", "barista": "barista", "nachbar": "nachbarin", "genießer": "genießerin",
        "frühaufsteher": "frühaufsteherin", "liebhaber": "liebhaberin", "kenner": "kennerin", "fan": "fan",
        "student": "studentin", "mitarbeiter": "mitarbeiterin", "teilnehmer": "teilnehmerin", "käufer": "käuferin",
    ])

    // MARK: Inflecting a span

    func inflect(
        _ phrase: inout Phrase,
        number: Morphology.GrammaticalNumber?,
        rule: Morphology?,
        context: inout AgreementContext
    ) -> PhraseAnalysis {
        phrase.inflectByConjunct(number: number, isConjunction: { Self.conjunctions.contains($0.lower) }) {
            phrase,
            part,
            own in
            inflect(&phrase, part: part, number: own, rule: rule, context: &context)
        }
    }

    /// Agreement in one part of a span (all of it, or the nouns one conjunct holds).
    private func inflect(
        _ phrase: inout Phrase,
        part: Range<Int>,
        number: Morphology.GrammaticalNumber?,
        rule: Morphology?,
        context: inout AgreementContext
    ) -> PhraseAnalysis {
        // A preposition opening the span governs it (mit 2 Keksen, ohne Zucker) and stays as written;
        // a contraction (zum, im) also brings its article.
        var start = part.lowerBound
        var governed: GermanCase?
        var contractedArticle = false
        var twoWay = false
        while start < part.upperBound, !phrase.words[start].isNumber, Self.isPreposition(phrase.words[start].lower) {
            let lower = phrase.words[start].lower
            governed = Self.prepositionCases[lower]
            twoWay = governed == nil
            contractedArticle = Self.contractedArticles.contains(lower)
            start += 1
        }
        // A German ordinal (500. Kunde) counts nothing.
        let number = isOrdinal(in: phrase, context: &context) ? nil : number
        let stated =
            rule?.grammaticalCase ?? phrase.hint?.grammaticalCase
            ?? phrase.words.lazy.compactMap({ $0.hint?.grammaticalCase }).first
        // Before the span: a two-way preposition there (Lust auf ^[…]) leaves the case to the meaning too.
        let clauseBefore = phrase.words.first.map { context.clause(before: $0.utf8Range.lowerBound) } ?? ""
        let wordsBefore = clauseBefore.split(separator: " ").map { $0.lowercased() }
        var twoWayPreposition = twoWay ? phrase.words[start - 1].lower : nil
        if !twoWay, stated == nil, let last = wordsBefore.last, Self.twoWayPrepositions.contains(last) {
            twoWay = true
            twoWayPreposition = last
        }
        let governedCase: GermanCase? =
            stated.map(GermanCase.init) ?? governed
            ?? (twoWay
                ? Self.twoWayCase(wordsBefore: wordsBefore, preposition: twoWayPreposition)
                : grammaticalCase(of: phrase, rule: rule, context: &context))
        // What the case can be when nothing decides it: after a two-way preposition the accusative
        // or the dative; with nothing governing, the nominative or the accusative (a dative needs a
        // word that asks for it).
        let possibleCases: [GermanCase] = twoWay ? [.accusative, .dative] : [.nominative, .accusative]
        guard let head = head(of: phrase, in: start..<part.upperBound, context: &context) else {
            return PhraseAnalysis(features: nil, addressesReader: number == nil && !hasContent(phrase, part))
        }
        let word = phrase.words[head.index]
        let hint = word.hint ?? phrase.hint
        let gender = hint?.grammaticalGender ?? head.reading.gender
        // The noun shows its number when its plural differs (Glühwein / Glühweine): then a
        // determiner written for any noun (die, unsere) does not make it plural.
        // A weak noun's oblique singular is its plural too (den Kunden): that shows nothing.
        let nounShowsNumber =
            head.adjective == nil && head.reading.plural != head.reading.singular
            && !(head.reading.isWrittenPlural && head.reading.oblique == head.reading.plural)
        let writtenPlural =
            hint?.number.map { $0 != .singular }
            ?? (nounShowsNumber ? head.reading.isWrittenPlural : nil)
            ?? (number == nil ? verbNumber(around: phrase, wordsBefore: wordsBefore, context: &context) : nil)
            ?? writtenNumber(
                in: phrase,
                from: start,
                before: head.index,
                gender: gender,
                case: governedCase ?? .nominative
            )
            ?? head.reading.isWrittenPlural
        let target = rule?.number ?? number ?? (writtenPlural ? .plural : .singular)
        let features = GrammaticalFeatures(gender: gender, number: target)
        if head.reading.isByRule, !head.reading.isUncountable {
            let form = head.reading.form(plural: features.isPlural, case: governedCase ?? .nominative)
            context.warn(.inflectedByRule(word.text, to: form, language: language))
        }
        // A loan's gender is not known: in the plural it does not matter; in the singular the words
        // whose form depends on it stay as written.
        if !head.reading.isGenderKnown, !features.isPlural {
            context.warn(.unknownGender(word.text))
            return PhraseAnalysis(features: nil, addressesReader: false)
        }
        // A case nothing governs is read from the words as written, where they show one; else the
        // words whose form depends on it stay as written and the noun takes its nominative.
        let caseFound =
            governedCase
            ?? writtenCase(in: phrase, from: start, before: head.index, features: features, among: possibleCases)
        let grammaticalCase = caseFound ?? possibleCases[0]
        guard
            caseFound != nil
                || !dependsOnCase(phrase, from: start, before: head.index, features: features, among: possibleCases)
        else {
            context.warn(.unknownCase(phrase.words[head.index].text))
            if head.adjective == nil, !head.reading.isUncountable {
                setNoun(&phrase, head: head, form: head.reading.form(plural: features.isPlural, case: possibleCases[0]))
            }
            return PhraseAnalysis(features: features, addressesReader: false)
        }
        var determiner: GermanDeclension.Determiner? =
            contractedArticle ? GermanDeclension.Determiner(declension: .weak, stem: "") : nil
        decline(
            &phrase,
            from: start,
            before: head.index,
            features: features,
            case: grammaticalCase,
            determiner: &determiner,
            context: &context
        )
        contractArticles(&phrase, part: part.lowerBound..<head.index, features: features, case: grammaticalCase)
        if let adjective = head.adjective {
            // A noun made of an adjective (ein Helles, 5 Helle, mit 2 Dunklen) declines as one.
            let declension = GermanDeclension.declension(after: determiner, features)
            let ending = GermanDeclension.ending(declension, grammaticalCase, features)
            phrase.words[head.index].set(GermanAdjectives.form(stem: adjective.stem, ending: ending))
        } else if !head.reading.isUncountable {
            let form = head.reading.form(plural: features.isPlural, case: grammaticalCase)
            setNoun(&phrase, head: head, form: form)
        }
        // Only a span without a number can speak of the reader (Lieber Kunde).
        let isPerson = number == nil && personNoun(in: phrase).map { $0.0 == head.index } ?? false
        return PhraseAnalysis(features: features, addressesReader: isPerson)
    }

    /// Whether a determiner before the head shows the phrase written in the plural (*die Kunden*) or
    /// the singular (*den Kunden* after *für*), when only one of the two has its form.
    private func writtenNumber(
        in phrase: Phrase,
        from start: Int,
        before head: Int,
        gender: Morphology.GrammaticalGender,
        case grammaticalCase: GermanCase
    ) -> Bool? {
        for index in start..<head {
            let written = phrase.words[index].lower
            guard let determiner = GermanDeclension.determiners[written] else { continue }
            // The indefinite article has no plural: eine is singular, whatever noun follows.
            if determiner.stem == "ein" { return false }
            let singular = GermanDeclension.form(
                of: determiner,
                grammaticalCase,
                GrammaticalFeatures(gender: gender, number: .singular)
            )
            let plural = GermanDeclension.form(
                of: determiner,
                grammaticalCase,
                GrammaticalFeatures(gender: gender, number: .plural)
            )
            if written == singular, written != plural { return false }
            if written == plural, written != singular { return true }
        }
        return nil
    }

    /// Whether the span's number is a German ordinal (*unser 500. Kunde*): digits with a full stop
    /// right after them, and a word after that. It counts nothing.
    private func isOrdinal(in phrase: Phrase, context: inout AgreementContext) -> Bool {
        guard let index = phrase.words.firstIndex(where: \.isNumber), index + 1 < phrase.words.count,
            !phrase.words[index + 1].isNumber
        else { return false }
        let end = phrase.words[index].utf8Range.upperBound
        return end < phrase.words[index + 1].utf8Range.lowerBound && context.text(end..<(end + 1)) == "."
    }

    /// The forms the words from `start` to the head take in a case: each word as declined, then the
    /// head noun's form.
    private func forms(
        _ phrase: Phrase,
        from start: Int,
        before head: Int,
        features: GrammaticalFeatures,
        case grammaticalCase: GermanCase
    ) -> [String] {
        var copy = phrase
        var determiner: GermanDeclension.Determiner?
        var scratch = AgreementContext(texts: [])
        decline(
            &copy,
            from: start,
            before: head,
            features: features,
            case: grammaticalCase,
            determiner: &determiner,
            context: &scratch
        )
        var forms = copy.words[start..<head].map(\.current)
        if let reading = nouns.reading(of: phrase.words[head].lower) {
            forms.append(reading.form(plural: features.isPlural, case: grammaticalCase))
        }
        return forms
    }

    /// Finite verbs that show their subject's number: singular, then plural.
    static let singularVerbs: WordSet = [
        "ist", "war", "wird", "bleibt", "kostet", "schmeckt", "fehlt", "geht", "kommt", "passt", "steht", "liegt",
        "enthält", "wartet",
    ]
    static let pluralVerbs: WordSet = [
        "sind", "waren", "werden", "bleiben", "kosten", "schmecken", "fehlen", "gehen", "kommen", "passen", "stehen",
        "liegen", "enthalten", "warten",
    ]

    /// The number a verb beside the span shows, for a noun whose form does not (*Das Mohnbrötchen
    /// ist aus*, *Das ist unser Törtchen*): the finite verb right after a span opening its clause, or
    /// a copula right before the span. `nil` when neither is there.
    private func verbNumber(around phrase: Phrase, wordsBefore: [String], context: inout AgreementContext) -> Bool? {
        // Nouns joined by und take a plural verb together.
        if phrase.words.contains(where: { Self.conjunctions.contains($0.lower) }) { return nil }
        func number(_ verb: String) -> Bool? {
            if Self.singularVerbs.contains(verb) { return false }
            if Self.pluralVerbs.contains(verb) { return true }
            return nil
        }
        // Sie sind … (the polite you) is one reader.
        if let previous = wordsBefore.last, let found = number(previous),
            !(found && wordsBefore.dropLast().last == "sie")
        {
            return found
        }
        guard wordsBefore.isEmpty, let last = phrase.words.last else { return nil }
        let after = context.clause(after: last.utf8Range.upperBound)
        return Self.firstWord(of: after).flatMap { number($0.lowercased()) }
    }

    /// Nouns a two-way preposition after them takes the accusative for (*Lust auf einen Kaffee*).
    static let accusativeIdioms: WordSet = [
        "lust", "appetit", "hunger", "durst", "freude", "gutschein", "rabatt", "anspruch", "wert", "einladung",
    ]
    /// Verbs that put something somewhere, as the imperative that opens a clause: a two-way
    /// preposition after them takes the accusative (*Gib einen Schuss Rum in den Tee*). Not the
    /// infinitive or polite forms, which are as often part of another verb (*geben Sie … an der
    /// Kasse ab*).
    static let placementVerbs: WordSet = [
        "gib", "gieß", "füll", "leg", "stell", "tu", "kipp", "schütt", "setz", "pack", "streu", "wirf",
    ]

    /// The case a two-way preposition takes where the words before say: the accusative after a noun
    /// of wanting before *auf* (*Lust auf*) or in a clause a verb of putting opens (*Gib … in den
    /// Tee*); else `nil`.
    static func twoWayCase(wordsBefore: [String], preposition: String?) -> GermanCase? {
        let trimmed = wordsBefore.map { String($0.filter { $0.isLetter }) }
        let beforePreposition =
            trimmed.last.map { twoWayPrepositions.contains($0) } == true ? trimmed.dropLast() : trimmed[...]
        if preposition == "auf", let noun = beforePreposition.last, accusativeIdioms.contains(noun) {
            return .accusative
        }
        // Gib … in den Tee: the verb of putting opens the clause (after bitte).
        let opening = trimmed.first == "bitte" ? trimmed.dropFirst().first : trimmed.first
        if let opening, placementVerbs.contains(opening) { return .accusative }
        return nil
    }

    /// The case the words before the head are written in, where they show one for this noun: each
    /// determiner in a form other than a nominative singular leaves the cases its written form has in
    /// some gender and number, and the case is
    /// found when all those left give the phrase the same forms (*auf die Bemme*: the nominative and
    /// the accusative of a feminine agree). `nil` when they do not, or nothing is written to read.
    private func writtenCase(
        in phrase: Phrase,
        from start: Int,
        before head: Int,
        features: GrammaticalFeatures,
        among possible: [GermanCase]
    ) -> GermanCase? {
        var candidates = possible
        let every: [GrammaticalFeatures] = [Morphology.GrammaticalGender.masculine, .feminine, .neuter].flatMap {
            gender in
            [
                GrammaticalFeatures(gender: gender, number: .singular),
                GrammaticalFeatures(gender: gender, number: .plural),
            ]
        }
        for index in start..<head {
            let written = phrase.words[index].lower
            guard let determiner = GermanDeclension.determiners[written] else { continue }
            // A nominative singular (ein, der, die, das, kein) is how a determiner is written before
            // any noun: it shows no case.
            let citation = [Morphology.GrammaticalGender.masculine, .feminine, .neuter].contains {
                GermanDeclension.form(of: determiner, .nominative, GrammaticalFeatures(gender: $0, number: .singular))
                    == written
            }
            if citation { continue }
            candidates = candidates.filter { grammaticalCase in
                every.contains { GermanDeclension.form(of: determiner, grammaticalCase, $0) == written }
            }
        }
        guard let first = candidates.first else { return nil }
        let expected = forms(phrase, from: start, before: head, features: features, case: first)
        return candidates.dropFirst().allSatisfy {
            forms(phrase, from: start, before: head, features: features, case: $0) == expected
        } ? first : nil
    }

    /// Whether the phrase's words take different forms in different cases.
    private func dependsOnCase(
        _ phrase: Phrase,
        from start: Int,
        before head: Int,
        features: GrammaticalFeatures,
        among possible: [GermanCase]
    ) -> Bool {
        let first = forms(phrase, from: start, before: head, features: features, case: possible[0])
        return possible.dropFirst().contains {
            forms(phrase, from: start, before: head, features: features, case: $0) != first
        }
    }

    /// A preposition and the definite article after it, as the noun's gender, number and case have
    /// them: written together where German writes them so (*von dem* → *vom*, *zu der* → *zur*), and
    /// apart where it does not (*vom* before a feminine → *von der*).
    private func contractArticles(
        _ phrase: inout Phrase,
        part: Range<Int>,
        features: GrammaticalFeatures,
        case grammaticalCase: GermanCase
    ) {
        guard let definite = GermanDeclension.determiners["der"] else { return }
        let article = GermanDeclension.form(of: definite, grammaticalCase, features)
        for index in part where !phrase.words[index].isNumber {
            let word = phrase.words[index]
            if let parts = Self.contractionParts[word.lower], word.hint == nil {
                // The contraction's own case is the preposition's (zu, von, bei: dative; ins: accusative).
                let own = Self.prepositionCases[word.lower] ?? grammaticalCase
                let form = GermanDeclension.form(of: definite, own, features)
                let joined = Self.contractions[parts.preposition + " " + form] ?? parts.preposition + " " + form
                if joined != word.lower { phrase.words[index].set(joined) }
                continue
            }
            guard index + 1 < part.upperBound, Self.isPreposition(word.lower),
                phrase.words[index + 1].hint == nil, GermanDeclension.determiners[phrase.words[index + 1].lower] != nil,
                phrase.words[index + 1].currentLower == article,
                let joined = Self.contractions[word.lower + " " + article]
            else { continue }
            phrase.words[index].set(joined)
            phrase.words[index + 1].replacement = ""
            phrase.words[index + 1].elides = true
        }
    }

    /// Prepositions written together with the definite article: what follows them declines weak.
    static let contractedArticles: WordSet = ["zum", "zur", "beim", "vom", "im", "am", "ins", "ans", "aufs"]

    /// The head of a span: where it is, how many words it spans, and its forms.
    private struct Head {
        var index: Int
        var length = 1
        var reading: GermanNouns.Reading
        /// Set for an adjective used as a noun (*Helles*): the stem its endings go on.
        var adjective: (stem: String, lemma: String)?
    }

    /// Whether the part has words other than determiners, numbers and prepositions.
    private func hasContent(_ phrase: Phrase, _ part: Range<Int>) -> Bool {
        part.contains { index in
            let word = phrase.words[index]
            return !word.isNumber && GermanDeclension.determiners[word.lower] == nil
                && !Self.isPreposition(word.lower)
        }
    }

    /// The head: a word hinted as a noun; else a measure noun before the noun it measures (*2 Tassen
    /// Kaffee*); else the last content word before a preposition, which must be a noun the lexicon
    /// knows (listed, a listed multi-word noun such as *Flat White*, or a compound whose last part is
    /// listed) or an adjective used as a noun (*Helles*). An unknown word there is reported and the
    /// span left as written.
    private func head(of phrase: Phrase, in part: Range<Int>, context: inout AgreementContext) -> Head? {
        let words = phrase.words
        if let hinted = part.first(where: { words[$0].hint?.partOfSpeech == .noun }) {
            let word = words[hinted]
            let reading =
                nouns.reading(of: word.lower)
                ?? GermanNouns.Reading(
                    gender: word.hint?.grammaticalGender ?? phrase.hint?.grammaticalGender ?? .masculine,
                    singular: word.lower,
                    plural: word.lower,
                    dativePlural: word.lower
                )
            return Head(index: hinted, reading: reading)
        }
        var content: [Int] = []
        for index in part {
            let word = words[index]
            if word.isNumber || GermanDeclension.determiners[word.lower] != nil
                || Self.conjunctions.contains(word.lower)
            {
                continue
            }
            if Self.isPreposition(word.lower) {
                if content.isEmpty { continue }
                break
            }
            content.append(index)
        }
        guard !content.isEmpty else { return nil }
        // A listed multi-word noun: Flat White, Irish Coffee, Latte macchiato.
        for index in content {
            guard let length = phraseLength(at: index, in: words, end: part.upperBound) else { continue }
            let text = words[index..<(index + length)].map(\.lower).joined(separator: " ")
            guard let reading = nouns.reading(of: text) else { continue }
            return Head(index: index, length: length, reading: reading)
        }
        // A measure noun before another noun is the head: 2 Tassen Kaffee, 2 Stück Kuchen.
        if let measure = content.dropLast().first(where: { Self.measureNouns.contains(words[$0].lower) }),
            let reading = nouns.reading(of: words[measure].lower),
            let next = content.first(where: { $0 > measure }),
            nouns.reading(of: words[next].lower) != nil || CasePattern(of: words[next].text) != .lower
        {
            return Head(index: measure, reading: reading)
        }
        let index = content.last!
        let word = words[index]
        if let reading = nouns.reading(of: word.lower) {
            return Head(index: index, reading: reading)
        }
        if CasePattern(of: word.text) != .lower, let adjective = nominalizedAdjective(word) {
            return Head(index: index, reading: adjective.reading, adjective: (adjective.stem, adjective.lemma))
        }
        if CasePattern(of: word.text) != .lower, let reading = nouns.ruleReading(of: word.lower) {
            return Head(index: index, reading: reading)
        }
        context.warn(.unknown(word.text, language: language))
        return nil
    }

    /// A listed multi-word noun starting at `index`: how many words it has.
    private func phraseLength(at index: Int, in words: [Word], end: Int) -> Int? {
        guard lexicon.longestPhrase > 1, lexicon.startsPhrase(words[index].lower) else { return nil }
        var longest: Int?
        var text = words[index].lower
        for next in (index + 1)..<min(end, index + lexicon.longestPhrase) {
            guard !words[next].isNumber else { break }
            text += " " + words[next].lower
            if let entry = lexicon.entry(text), entry.canBeNoun { longest = next - index + 1 }
        }
        return longest
    }

    /// Sets the head to `form`, a multi-word head word by word.
    private func setNoun(_ phrase: inout Phrase, head: Head, form: String) {
        guard head.length > 1 else {
            phrase.words[head.index].set(form)
            return
        }
        let parts = form.split(separator: " ").map(String.init)
        guard parts.count == head.length else { return }
        for offset in 0..<head.length { phrase.words[head.index + offset].set(parts[offset]) }
    }

    /// A capitalised word that is a declined adjective (*Helles*, *Kurzer*, *Weiße*): a noun whose
    /// gender its strong nominative ending shows (*-er* masculine, *-es* neuter, *-e* feminine).
    private func nominalizedAdjective(_ word: Word) -> (reading: GermanNouns.Reading, stem: String, lemma: String)? {
        let lower = word.lower
        for (ending, gender) in [("es", Morphology.GrammaticalGender.neuter), ("er", .masculine), ("e", .feminine)]
        where lower.endsWith(ending) {
            let base = lower.droppingLastBytes(ending.utf8.count)
            guard let (lemma, entry) = adjectiveLemma(ofStem: base) else { continue }
            let stem = GermanAdjectives.stem(of: lemma, entry: entry)
            let reading = GermanNouns.Reading(gender: gender, singular: lower, plural: lower, dativePlural: lower)
            return (reading, stem, lemma)
        }
        return nil
    }

    /// The adjective whose declension stem is `base` (*hell*, *dunkl* → *dunkel*).
    private func adjectiveLemma(ofStem base: String) -> (String, LexiconEntry)? {
        if let entry = lexicon.entry(base), entry.canBeAdjective { return (base, entry) }
        if let entry = lexicon.entry(base + "e"), entry.canBeAdjective { return (base + "e", entry) }
        // A stem that is not the lemma (dunkl → dunkel, teur → teuer, hoh → hoch).
        for candidate in [base.droppingLastBytes(1) + "el", base.droppingLastBytes(1) + "er"] where base.count > 2 {
            if let entry = lexicon.entry(candidate), entry.canBeAdjective,
                GermanAdjectives.stem(of: candidate, entry: entry) == base
            {
                return (candidate, entry)
            }
        }
        if let found = lexicon.entry(forInflectedForm: base)?.entry, found.canBeAdjective {
            return (found.lemma.fastLowercased, found)
        }
        return nil
    }

    /// Determiners and adjectives before the head, declined for its case, gender and number.
    /// Unknown words stay as written; so does an adjective written uninflected right before an
    /// inflected one of the same argument, which it qualifies (*frisch gepresster*).
    private func decline(
        _ phrase: inout Phrase,
        from start: Int,
        before head: Int,
        features: GrammaticalFeatures,
        case grammaticalCase: GermanCase,
        determiner: inout GermanDeclension.Determiner?,
        context: inout AgreementContext
    ) {
        for index in start..<head {
            let word = phrase.words[index]
            if word.isNumber {
                // The digit 1 reads "ein": the mixed declension (1 großer Kaffee, mit 1 großen Kaffee).
                if !features.isPlural, determiner == nil {
                    determiner = GermanDeclension.Determiner(declension: .mixed, stem: "ein")
                }
                continue
            }
            let lower = word.lower
            if let found = GermanDeclension.determiners[lower] {
                determiner = found
                phrase.words[index].set(GermanDeclension.form(of: found, grammaticalCase, features))
                continue
            }
            if Self.conjunctions.contains(lower) || Self.isPreposition(lower)
                || word.hint.map({ $0.partOfSpeech != .adjective }) == true
                    && word.hint?.partOfSpeech != nil
            {
                continue
            }
            guard let (lemma, entry) = adjectiveLemma(of: word) else {
                if let stem = ruleAdjectiveStem(word) {
                    // A participle or a compound adjective: declined as its shape says.
                    if isAdverb(before: index, head: head, in: phrase) { continue }
                    let declension = GermanDeclension.declension(after: determiner, features)
                    let ending = GermanDeclension.ending(declension, grammaticalCase, features)
                    let form = GermanAdjectives.form(stem: stem, ending: ending)
                    phrase.words[index].set(form)
                    context.warn(.inflectedByRule(word.text, to: form, language: language))
                    continue
                }
                // Capitalised words before the head are nouns or names (Latte, Wiener): not declined.
                if CasePattern(of: word.text) == .lower { context.warn(.unknown(word.text, language: language)) }
                continue
            }
            if entry.isInvariable { continue }
            if lower == lemma, index + 1 < head, let next = adjectiveLemma(of: phrase.words[index + 1]),
                phrase.words[index + 1].lower != next.0, phrase.words[index + 1].argument == word.argument
            {
                continue  // frisch gepresster Orangensaft: an adverb
            }
            if lower == lemma, isAdverb(before: index, head: head, in: phrase) { continue }
            let declension = GermanDeclension.declension(after: determiner, features)
            let ending = GermanDeclension.ending(declension, grammaticalCase, features)
            phrase.words[index].set(
                GermanAdjectives.form(stem: GermanAdjectives.stem(of: lemma, entry: entry), ending: ending)
            )
        }
    }

    /// A participle (*kandiert*, *hausgebeizt*, *geraspelt*, *gebacken*) or a compound whose last
    /// part is a listed adjective (*extragroß*, *mittelgroß*), written in lowercase before the noun:
    /// the stem its endings go on; `nil` for any other word the lexicon does not know.
    private func ruleAdjectiveStem(_ word: Word) -> String? {
        guard CasePattern(of: word.text) == .lower, word.lower.utf8.count <= WordFormation.longestWord else {
            return nil
        }
        let lower = word.lower
        for ending in [""] + GermanAdjectives.endings where lower.endsWith(ending) {
            let base = lower.droppingLastBytes(ending.utf8.count)
            guard base.count >= 5 else { continue }
            if base.endsWith("iert") || (base.contains("ge") && base.endsWith("t"))
                || (base.startsWith("ge") && base.endsWith("en") && base.count >= 7)
            {
                return base
            }
            let scalars = Array(base)
            for split in 3..<max(3, scalars.count - 2) {
                let part = String(scalars[split...])
                if let (lemma, entry) = adjectiveLemma(ofStem: part), lemma == part || ending.isEmpty == false {
                    return String(scalars[..<split]) + GermanAdjectives.stem(of: lemma, entry: entry)
                }
            }
        }
        return nil
    }

    /// Whether an uninflected word given in one argument with the adjective after it qualifies that
    /// adjective (*frisch gepresst*, *hell geröstet*) rather than the noun.
    private func isAdverb(before index: Int, head: Int, in phrase: Phrase) -> Bool {
        let word = phrase.words[index]
        guard word.argument != nil, index + 1 < head, phrase.words[index + 1].argument == word.argument else {
            return false
        }
        let next = phrase.words[index + 1]
        guard CasePattern(of: next.text) == .lower else { return false }
        return adjectiveLemma(of: next) != nil || ruleAdjectiveStem(next) != nil
    }

    /// An adjective's lemma and entry, when the lexicon knows the word (declined or not);
    /// capitalised place names in *-er* (*Wiener Würstchen*) and nouns are not adjectives here.
    private func adjectiveLemma(of word: Word) -> (String, LexiconEntry)? {
        let lower = word.lower
        let isLower = CasePattern(of: word.text) == .lower || word.hint?.partOfSpeech == .adjective
        if isLower, let entry = lexicon.entry(lower), entry.canBeAdjective { return (lower, entry) }
        // Capitalised, an adjective is declined only in a name or after a stop (Kalter Hund, Lieber
        // Kunde): written with an ending on a known adjective; place names (Wiener) have none.
        guard isLower || GermanAdjectives.endings.contains(where: { lower.endsWith($0) }) else { return nil }
        for ending in GermanAdjectives.endings where lower.endsWith(ending) {
            if let found = adjectiveLemma(ofStem: lower.droppingLastBytes(ending.utf8.count)) { return found }
        }
        if let found = lexicon.entry(forInflectedForm: lower)?.entry, found.canBeAdjective {
            return (found.lemma.fastLowercased, found)
        }
        return nil
    }

    // MARK: Case

    /// The case of a span: the one a hint states (`inflect: {grammaticalCase: …}` or a `morphology`
    /// over the phrase); else the one a preposition just before it governs (*mit*, *für*); else, when
    /// a span opens its clause, the nominative if a finite verb follows it (*2 Pizzen sind fertig*)
    /// and the accusative if the clause ends in an infinitive or participle (*… hinzufügen*); else,
    /// after a copula (*ist*, *sind*) or *als*/*wie* opening the clause, the nominative; after a verb
    /// that takes an object and opens the clause or has a subject pronoun beside it (*Probier den …*,
    /// *Möchten Sie noch …*), or in a clause ending in a participle (*Sie haben … bestellt*), the
    /// accusative; and the nominative for a span standing alone (a label). After any other words
    /// nothing says which: `nil` (a two-way preposition, *Heute kein Kuchen mehr da*, *Heute empfiehlt
    /// unser Koch …*).
    func grammaticalCase(of phrase: Phrase, rule: Morphology?, context: inout AgreementContext) -> GermanCase? {
        if let stated = rule?.grammaticalCase ?? phrase.hint?.grammaticalCase
            ?? phrase.words.lazy.compactMap({ $0.hint?.grammaticalCase }).first
        {
            return GermanCase(stated)
        }
        guard let first = phrase.words.first, let last = phrase.words.last else { return .nominative }
        // Clauses come trimmed, so only their first and last space-separated words need reading.
        let before = context.clause(before: first.utf8Range.lowerBound)
        guard let previousWord = Self.lastWord(of: before) else {
            let after = context.clause(after: last.utf8Range.upperBound)
            if let next = Self.firstWord(of: after)?.lowercased(), Self.finiteVerbs.contains(next) {
                return .nominative
            }
            if let final = Self.lastWord(of: after), Self.isNonFiniteVerb(final) { return .accusative }
            return .nominative
        }
        let previous = previousWord.lowercased()
        if let governed = Self.prepositionCases[previous] { return governed }
        if Self.twoWayPrepositions.contains(previous) { return nil }
        if Self.copulas.contains(previous) { return .nominative }
        if Self.comparisons.contains(previous) { return before.contains(" ") ? nil : .nominative }
        // After a comma, a span is a vocative or an apposition (Guten Morgen, lieber Gast).
        if previous.hasSuffix(",") { return .nominative }
        // Sind Sie / Bist du / Ist das … ein neuer Kunde: the copula's subject comes between.
        let rest = before.dropLast(previousWord.count)
        if Self.subjectWords.contains(previous),
            let verb = Self.lastWord(of: String(rest.last == " " ? rest.dropLast() : rest)),
            Self.copulas.contains(verb.lowercased())
        {
            return .nominative
        }
        // The verb before the span, past pronouns and adverbs (Möchten Sie noch …).
        // An object verb makes the span its object when the verb opens the clause (Probier den …,
        // Möchten Sie …) or a subject pronoun stands beside it (Ich hätte gern …, Heute empfehlen
        // wir …); after a fronted word the span may be the subject (Heute empfiehlt unser Koch …).
        var words = before.split(separator: " ").reversed().map { $0.lowercased() }[...]
        var skipped: [String] = []
        while let word = words.first, Self.transparentWords.contains(word) {
            skipped.append(word)
            words = words.dropFirst()
        }
        if let verb = words.first {
            if Self.accusativeVerbs.contains(verb) {
                let opensClause = words.count == 1 || (words.count == 2 && words.last == "bitte")
                let subjectBeside =
                    skipped.contains(where: Self.verbSubjects.contains)
                    || words.dropFirst().first.map(Self.verbSubjects.contains) == true
                return opensClause || subjectBeside ? .accusative : nil
            }
            if Self.copulas.contains(verb) || Self.finiteVerbs.contains(verb) { return .nominative }
        }
        let after = context.clause(after: last.utf8Range.upperBound)
        if let final = Self.lastWord(of: after), Self.isNonFiniteVerb(final) { return .accusative }
        return nil
    }

    /// The last of a trimmed clause's space-separated words, `nil` for an empty clause.
    private static func lastWord(of clause: String) -> Substring? {
        guard !clause.isEmpty else { return nil }
        let space = spacesStandAlone(in: clause) ? clause.utf8.lastIndex(of: 0x20) : clause.lastIndex(of: " ")
        return space.map { clause[clause.index(after: $0)...] } ?? clause[...]
    }

    /// The first of a trimmed clause's space-separated words, `nil` for an empty clause.
    private static func firstWord(of clause: String) -> Substring? {
        guard !clause.isEmpty else { return nil }
        let space = spacesStandAlone(in: clause) ? clause.utf8.firstIndex(of: 0x20) : clause.firstIndex(of: " ")
        return clause[..<(space ?? clause.endIndex)]
    }

    /// Whether every space byte in `text` is a `Character` of its own, so words can be split at
    /// space bytes: true when each has ASCII on both sides (a combining mark after a space would
    /// join it, as would some marks before it).
    private static func spacesStandAlone(in text: String) -> Bool {
        let bytes = text.utf8
        var previous: UInt8 = 0
        var afterSpace = false
        for byte in bytes {
            if afterSpace, byte >= 0x80 { return false }
            if byte == 0x20, previous >= 0x80 { return false }
            afterSpace = byte == 0x20
            previous = byte
        }
        return true
    }

    /// A lowercase infinitive or participle ending a clause: *hinzufügen*, *bestellen*, *bestellt*,
    /// *hinzugefügt*.
    static func isNonFiniteVerb(_ word: some StringProtocol) -> Bool {
        // The word without the punctuation around it.
        guard let start = word.firstIndex(where: \.isLetter), let end = word.lastIndex(where: \.isLetter) else {
            return false
        }
        let trimmed = word[start...end]
        guard let first = trimmed.first, first.isLowercase, trimmed.count > 3 else { return false }
        if trimmed.hasSuffix("en") || trimmed.hasSuffix("ern") || trimmed.hasSuffix("eln") { return true }
        return trimmed.hasSuffix("t") && (trimmed.hasPrefix("ge") || trimmed.contains("ge"))
    }

    // MARK: Agreement with arguments, concepts and the reader

    func features(of phrase: Phrase) -> GrammaticalFeatures? {
        var scratch = AgreementContext(texts: [])
        let part = phrase.conjuncts { Self.conjunctions.contains($0.lower) }.first ?? 0..<phrase.words.count
        guard let head = head(of: phrase, in: part, context: &scratch) else { return nil }
        let lemma = head.reading.singular
        var gender = phrase.words[head.index].hint?.grammaticalGender ?? head.reading.gender
        if Self.personNouns.isDistinctFeminine(lemma) { gender = .feminine }
        return GrammaticalFeatures(gender: gender, number: head.reading.isWrittenPlural ? .plural : .singular)
    }

    /// Person nouns take the reader's or argument's gender (*Kunde* → *Kundin*, *Lieblingskunde* →
    /// *Lieblingskundin*) and the words before them are declined for it, in the case the sentence
    /// gives; predicative words (*Willkommen*, *bereit*) do not change in German.
    func agree(_ phrase: inout Phrase, with features: GrammaticalFeatures, context: inout AgreementContext) {
        guard let (head, person) = personNoun(in: phrase) else { return }
        let gender: Morphology.GrammaticalGender = features.gender == .feminine ? .feminine : .masculine
        let agreed = GrammaticalFeatures(gender: gender, number: features.number)
        let grammaticalCase = grammaticalCase(of: phrase, rule: nil, context: &context) ?? .nominative
        let singular = person.prefix + (gender == .feminine ? person.feminine : person.masculine)
        let form: String
        if gender == .feminine {
            form = agreed.isPlural ? singular + "nen" : singular
        } else if let reading = nouns.reading(of: singular) {
            form = reading.form(plural: agreed.isPlural, case: grammaticalCase)
        } else {
            return
        }
        phrase.words[head].set(form)
        var determiner: GermanDeclension.Determiner?
        var scratch = AgreementContext(texts: [])
        decline(
            &phrase,
            from: 0,
            before: head,
            features: agreed,
            case: grammaticalCase,
            determiner: &determiner,
            context: &scratch
        )
    }

    /// The person noun of a phrase, alone or ending a compound, in any of its forms (*Kunde*,
    /// *Kunden*, *Kundin*, *Stammkunde*, *Lieblingskunden*).
    private func personNoun(in phrase: Phrase) -> (Int, (prefix: String, masculine: String, feminine: String))? {
        for index in phrase.words.indices where !phrase.words[index].isNumber {
            let lower = phrase.words[index].lower
            for (form, masculine, feminine) in Self.personNounForms where lower.endsWith(form) {
                let prefix = lower.droppingLastBytes(form.utf8.count)
                // The whole word, or a compound whose prefix is more than a letter or two.
                guard prefix.isEmpty || prefix.count > 2 else { continue }
                return (index, (prefix, masculine, feminine))
            }
        }
        for index in phrase.words.indices where !phrase.words[index].isNumber {
            if let found = listedPerson(phrase.words[index]) { return (index, found) }
        }
        return nil
    }

    /// A person noun the table does not list but the lexicon pairs with its feminine in *-in*
    /// (*Teetrinker* / *Teetrinkerin*, *Veganer* / *Veganerin*), itself or as a compound's last
    /// part. Only in the template's own words: a menu item given as an argument (*Berliner*) is a
    /// thing, whatever else the lexicon says.
    private func listedPerson(_ word: Word) -> (prefix: String, masculine: String, feminine: String)? {
        guard word.argument == nil, word.hint == nil, CasePattern(of: word.text) != .lower else { return nil }
        func isFeminine(_ word: String) -> Bool { lexicon.entry(word)?.grammaticalGender == .feminine }
        func isMasculine(_ word: String) -> Bool {
            guard let entry = lexicon.entry(word), entry.canBeNoun else { return false }
            return entry.grammaticalGender == .masculine
        }
        var candidates = [("", word.lower)]
        if let (prefix, part) = nouns.lastCompoundPart(of: word.lower) { candidates.append((prefix, part)) }
        for (prefix, part) in candidates {
            if isMasculine(part), isFeminine(part + "in") { return (prefix, part, part + "in") }
            if part.endsWith("in"), isFeminine(part), case let masculine = part.droppingLastBytes(2),
                isMasculine(masculine)
            {
                return (prefix, masculine, part)
            }
        }
        return nil
    }

    /// Every form of the person nouns (*Kundinnen*, *Kundin*, *Kunden*, *Kunde*), longest first,
    /// with the masculine and feminine it is a form of.
    private static let personNounForms: [(form: String, masculine: String, feminine: String)] =
        personNouns.feminineByMasculine.allKeys.flatMap { masculine -> [(String, String, String)] in
            let feminine = personNouns.feminineByMasculine[masculine] ?? masculine
            return [feminine + "nen", feminine, masculine + "n", masculine + "en", masculine].map {
                ($0, masculine, feminine)
            }
        }.sorted { $0.0.utf8.count > $1.0.utf8.count }

    func features(addressing term: TermOfAddress) -> GrammaticalFeatures? { term.singularFeatures }

    private static let subjectPronouns = ["er", "sie", "es", "sie"]

    func substitutePronouns(_ phrase: inout Phrase, referent: Referent, context: inout AgreementContext) {
        guard let features = referent.pronounFeatures else { return }
        let slot = features.isPlural ? 3 : features.gender == .feminine ? 1 : features.gender == .neuter ? 2 : 0
        for index in phrase.words.indices where ["er", "sie", "es"].contains(phrase.words[index].lower) {
            phrase.words[index].set(Self.subjectPronouns[slot])
        }
    }

    // MARK: Around the span

    /// Last letters of the prepositions that contract with *dem*, *der* and *das*.
    private static let contractingEndings = Array("unmeion".utf8)

    private static let contractions: WordTable<String> = [
        "zu dem": "zum", "zu der": "zur", "in dem": "im", "an dem": "am", "von dem": "vom", "bei dem": "beim",
        "in das": "ins", "an das": "ans", "auf das": "aufs",
    ]

    /// A preposition before the span contracts with its article: *zu dem* → *zum*, *zu der* → *zur*,
    /// *in dem* → *im*, *an dem* → *am*, *von dem* → *vom*, *bei dem* → *beim*, *in das* → *ins*,
    /// *an das* → *ans*.
    func boundaryEdits(for phrase: Phrase, context: inout AgreementContext) -> [RichTextEdit] {
        guard let first = phrase.words.first, !first.isNumber,
            let before = context.word(before: first.utf8Range.lowerBound, endingIn: Self.contractingEndings)
        else { return [] }
        guard let contracted = Self.contractions[before.text.lowercased() + " " + first.currentLower] else { return [] }
        return [
            RichTextEdit(
                utf8Range: before.utf8Range.lowerBound..<first.utf8Range.upperBound,
                replacement: CasePattern(of: before.text).apply(to: contracted, original: before.text)
            )
        ]
    }
}
