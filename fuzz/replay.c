/* replay.c - main() for a fuzz target outside libFuzzer: runs every file of the corpus
 * directories (or files) given, so the normal test suite checks the committed corpus. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define INPUT_MAX (4 * 1024 * 1024)

static int run_file(const char *path)
{
	uint8_t *buf = malloc(INPUT_MAX);
	size_t n;
	FILE *f;

	if (!buf)
		return -1;
	f = fopen(path, "rb");
	if (!f) {
		perror(path);
		free(buf);
		return -1;
	}
	n = fread(buf, 1, INPUT_MAX, f);
	fclose(f);
	LLVMFuzzerTestOneInput(buf, n);
	free(buf);
	return 0;
}

int main(int argc, char **argv)
{
	int i, files = 0;

	for (i = 1; i < argc; i++) {
		char path[4096];
		struct dirent *de;
		struct stat st;
		DIR *d;

		if (stat(argv[i], &st)) {
			perror(argv[i]);
			return 1;
		}
		if (!S_ISDIR(st.st_mode)) {
			if (run_file(argv[i]))
				return 1;
			files++;
			continue;
		}
		d = opendir(argv[i]);
		if (!d)
			return 1;
		while ((de = readdir(d))) {
			if (de->d_name[0] == '.')
				continue;
			if (snprintf(path, sizeof(path), "%s/%s", argv[i], de->d_name) >=
			    (int)sizeof(path))
				continue;
			if (run_file(path)) {
				closedir(d);
				return 1;
			}
			files++;
		}
		closedir(d);
	}
	fprintf(stderr, "%d inputs replayed\n", files);
	return files ? 0 : 1;
}
