"""Generated from Sources/CaffeProtocol/Proto by clients/python/generate_protos.sh."""
