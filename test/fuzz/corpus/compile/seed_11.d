BEGIN { self->s = speculation(); speculate(self->s); printf("%s\n", "spec"); } BEGIN { commit(self->s); discard(self->s); }
