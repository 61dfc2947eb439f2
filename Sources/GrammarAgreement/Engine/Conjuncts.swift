import RichText

extension Phrase {
    /// The parts of a span between the conjunctions written in the template (`isConjunction`),
    /// not those inside an argument's text (*tramezzino tonno e pomodoro* is one name) nor one
    /// opening the span; empty parts dropped.
    func conjuncts(where isConjunction: (Word) -> Bool) -> [Range<Int>] {
        var parts: [Range<Int>] = []
        var start = 0
        for index in words.indices
        where index > 0 && !words[index].isNumber && words[index].argument == nil && isConjunction(words[index]) {
            parts.append(start..<index)
            start = index + 1
        }
        parts.append(start..<words.count)
        return parts.filter { !$0.isEmpty }
    }

    /// Agreement over nouns joined by conjunctions: each part agrees within itself and takes the
    /// number it holds (*2 croissants et café*, *2 Espressos und 1 Waffel*). `inflect` works on one
    /// part with that part's number; the analysis returned is the first numbered part's (or the
    /// first part's, when none holds a number).
    mutating func inflectEachConjunct(
        _ parts: [Range<Int>],
        _ inflect: (inout Phrase, Range<Int>, Morphology.GrammaticalNumber?) -> PhraseAnalysis
    ) -> PhraseAnalysis {
        var analysis: PhraseAnalysis?
        for part in parts {
            let own = words[part].first(where: \.isNumber)?.grammaticalNumber
            let result = inflect(&self, part, own)
            if analysis == nil || (own != nil && analysis?.features == nil) { analysis = result }
        }
        return analysis ?? PhraseAnalysis(features: nil, addressesReader: false)
    }

    /// ``inflectEachConjunct(_:_:)`` for grammars that read a whole phrase: each part is handed
    /// over as a phrase of its own and its words put back.
    mutating func inflectEachConjunctApart(
        _ parts: [Range<Int>],
        _ inflect: (inout Phrase, Morphology.GrammaticalNumber?) -> PhraseAnalysis
    ) -> PhraseAnalysis {
        inflectEachConjunct(parts) { phrase, part, number in
            var sub = Phrase(words: Array(phrase.words[part]), hint: phrase.hint)
            let result = inflect(&sub, number)
            phrase.words.replaceSubrange(part, with: sub.words)
            return result
        }
    }
}
