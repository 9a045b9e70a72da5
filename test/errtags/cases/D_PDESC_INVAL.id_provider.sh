#!/bin/sh
# A probe identifier where -P expects a provider name.
exec "$1" -x errtags -e -P 12
