"""Language: reading what people say about a scene, in English and Simplified Chinese, and saying things back.

- words.py: normalised words, singular nouns, compound forms, which language a text is in;
- vocabulary.py: room and object words, synonyms and ScanNet's category names; zh_lexicon.py: their Chinese;
- lexicon.py: the nouns a scene's descriptions can use, misspellings included; spelling.py: other misspelt words;
- color_words.py, size_words.py, order_words.py, relation_words.py: the words that say which one;
- tokens.py, sentences.py, phrase_parts.py, views.py, settings.py, grammar.py: a description read into a `Reading`
  (reading.py); settings.py also checks that every word of content was used or said unused;
- intent.py: what a question asks for (colour, size, count, show, compare …); quantity.py: all, several, one;
- zh.py, zh_phrases.py: Chinese read into the same reading;
- say.py: lists, counts and names in the user's language.
"""
