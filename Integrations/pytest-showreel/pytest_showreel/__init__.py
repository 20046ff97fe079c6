"""Record each pytest test as a video through Showreel's tunnel host."""
