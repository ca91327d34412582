"""YvY (seeds/004): loops and sprouts on the hex:N board; a loop wins at once, else the count after two passes."""
