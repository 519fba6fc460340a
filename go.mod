module github.com/twentyone-bot/twentyone

go 1.26
