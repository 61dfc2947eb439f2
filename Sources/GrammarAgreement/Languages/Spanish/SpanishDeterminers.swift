import RichText

/// Spanish articles, demonstratives, possessives and quantifiers, in their four forms.
enum SpanishDeterminers {
    struct Forms: Sendable {
        var masculineSingular: String
        var feminineSingular: String
        var masculinePlural: String
        var femininePlural: String
        /// The form before a feminine noun starting with stressed *a* (*el agua*, *un hacha*).
        var beforeStressedA: String?
    }

    /// Determiners by their masculine singular.
    static let lexemes: [String: Forms] = {
        var table: [String: Forms] = [
            "el": Forms(
                masculineSingular: "el",
                feminineSingular: "la",
                masculinePlural: "los",
                femininePlural: "las",
                beforeStressedA: "el"
            ),
            "un": Forms(
                masculineSingular: "un",
                feminineSingular: "una",
                masculinePlural: "unos",
                femininePlural: "unas",
                beforeStressedA: "un"
            ),
            "del": Forms(
                masculineSingular: "del",
                feminineSingular: "de la",
                masculinePlural: "de los",
                femininePlural: "de las",
                beforeStressedA: "del"
            ),
            "al": Forms(
                masculineSingular: "al",
                feminineSingular: "a la",
                masculinePlural: "a los",
                femininePlural: "a las",
                beforeStressedA: "al"
            ),
            "algún": Forms(
                masculineSingular: "algún",
                feminineSingular: "alguna",
                masculinePlural: "algunos",
                femininePlural: "algunas",
                beforeStressedA: "algún"
            ),
            "ningún": Forms(
                masculineSingular: "ningún",
                feminineSingular: "ninguna",
                masculinePlural: "ningunos",
                femininePlural: "ningunas",
                beforeStressedA: "ningún"
            ),
            "aquel": Forms(
                masculineSingular: "aquel",
                feminineSingular: "aquella",
                masculinePlural: "aquellos",
                femininePlural: "aquellas"
            ),
            "este": Forms(
                masculineSingular: "este",
                feminineSingular: "esta",
                masculinePlural: "estos",
                femininePlural: "estas"
            ),
            "ese": Forms(
                masculineSingular: "ese",
                feminineSingular: "esa",
                masculinePlural: "esos",
                femininePlural: "esas"
            ),
            "mi": Forms(masculineSingular: "mi", feminineSingular: "mi", masculinePlural: "mis", femininePlural: "mis"),
            "tu": Forms(masculineSingular: "tu", feminineSingular: "tu", masculinePlural: "tus", femininePlural: "tus"),
            "su": Forms(masculineSingular: "su", feminineSingular: "su", masculinePlural: "sus", femininePlural: "sus"),
            "cada": Forms(
                masculineSingular: "cada",
                feminineSingular: "cada",
                masculinePlural: "cada",
                femininePlural: "cada"
            ),
            "cualquier": Forms(
                masculineSingular: "cualquier",
                feminineSingular: "cualquier",
                masculinePlural: "cualesquiera",
                femininePlural: "cualesquiera"
            ),
            "varios": Forms(
                masculineSingular: "varios",
                feminineSingular: "varias",
                masculinePlural: "varios",
                femininePlural: "varias"
            ),
            "ambos": Forms(
                masculineSingular: "ambos",
                feminineSingular: "ambas",
                masculinePlural: "ambos",
                femininePlural: "ambas"
            ),
        ]
        // Determiners that inflect like adjectives in -o.
        for stem in ["nuestr", "vuestr", "otr", "much", "poc", "tod", "tant", "cuant", "demasiad", "ciert"] {
            table[stem + "o"] = Forms(
                masculineSingular: stem + "o",
                feminineSingular: stem + "a",
                masculinePlural: stem + "os",
                femininePlural: stem + "as"
            )
        }
        return table
    }()

    /// Every written form back to its determiner (*las* → *el*, *una* → *un*, *uno* → *un*).
    static let lemmas: WordTable<String> = {
        var index: WordTable<String> = ["uno": "un", "alguno": "algún", "ninguno": "ningún"]
        for (lemma, forms) in lexemes {
            for form in [forms.masculineSingular, forms.feminineSingular, forms.masculinePlural, forms.femininePlural]
            where !form.contains(" ") && index[form] == nil {
                index[form] = lemma
            }
        }
        return index
    }()

    /// The form of determiner `lemma` for `features`; `beforeStressedA` when it directly precedes
    /// a singular feminine noun such as *agua*.
    static func form(_ lemma: String, _ features: GrammaticalFeatures, beforeStressedA: Bool = false) -> String? {
        guard let forms = lexemes[lemma] else { return nil }
        let feminine = features.gender == .feminine
        switch (feminine, features.isPlural) {
        case (false, false): return forms.masculineSingular
        case (true, false):
            return beforeStressedA ? forms.beforeStressedA ?? forms.feminineSingular : forms.feminineSingular
        case (false, true): return forms.masculinePlural
        case (true, true): return forms.femininePlural
        }
    }

    /// Whether a written form shows the plural (*los*, *unas*), when it shows a number at all.
    static func writtenNumber(_ form: String) -> Bool? {
        guard let lemma = lemmas[form], let forms = lexemes[lemma], forms.masculineSingular != forms.masculinePlural
        else { return nil }
        if form == forms.masculinePlural || form == forms.femininePlural { return true }
        if form == forms.masculineSingular || form == forms.feminineSingular || lemma == form { return false }
        return nil
    }

    /// The gender a written form shows, if it shows one (*la* → feminine, *mi* → none).
    static func writtenGender(_ form: String) -> Bool? {
        guard let lemma = lemmas[form], let forms = lexemes[lemma], forms.masculineSingular != forms.feminineSingular
        else { return nil }
        if form == forms.feminineSingular || form == forms.femininePlural { return true }
        return false
    }
}
