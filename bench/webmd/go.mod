module mm/bench/webmd

go 1.26.0

require (
	github.com/JohannesKaufmann/html-to-markdown/v2 v2.5.2
	golang.org/x/net v0.62.0
	mm v0.0.0
)

require (
	github.com/JohannesKaufmann/dom v0.3.1 // indirect
	golang.org/x/text v0.44.0 // indirect
)

replace mm => ../..
