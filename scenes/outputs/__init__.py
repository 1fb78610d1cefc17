"""What is made from renders and traces: subtitles, slide decks, the lecture page, numbers
reports."""
