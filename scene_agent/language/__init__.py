"""Language: reading what people say about a scene, in English and Simplified Chinese, and saying things back.

- words.py: normalised words, singular nouns, compound forms, which language a text is in;
- vocabulary.py: room and object words, synonyms and ScanNet's category names; zh_lexicon.py: their Chinese;
- color_words.py, size_words.py, place_words.py, order_words.py: the words that say which one;
- phrase.py: a description split into its head and those qualifiers (resolution/query.py reads it against a scene);
- intent.py: what a question asks for (colour, size, count, show, compare …); quantity.py: all, several, one;
- zh.py: a Chinese question read into the English the parsers know;
- say.py: lists, counts and names in the user's language.
"""
