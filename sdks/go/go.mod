module github.com/intent-service/partner-go

go 1.23
