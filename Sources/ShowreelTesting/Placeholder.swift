// ShowreelTesting
