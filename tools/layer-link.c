/* layer-link.c - the program of the layer-link-LAYER checks (meson.build): it only gives the
 * linker a main() while it resolves every symbol of one layer against the layers it may use. */
int main(void)
{
	return 0;
}
