"""Language: which translations are behind their English source (translations) and each
language's typography (typography)."""
