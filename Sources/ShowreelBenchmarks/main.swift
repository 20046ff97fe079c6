print("benchmarks land here")
