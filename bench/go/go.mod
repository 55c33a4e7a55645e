module weft.dev/bench/go

go 1.22
