"""Building the book: staging and building each language's site (build), executing and syncing the
notebooks (notebooks), the figures (figures), the glossary page (glossary), what the buttons of a
built site open (launch) and the Sphinx extensions (sphinx/)."""
