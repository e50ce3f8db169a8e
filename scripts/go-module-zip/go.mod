module github.com/pulumi-opsledger/pulumi-opsledger/scripts/go-module-zip

go 1.25.11

require golang.org/x/mod v0.38.0
