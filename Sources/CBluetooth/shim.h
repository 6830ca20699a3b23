#include <sys/ioctl.h>
#include <bluetooth/bluetooth.h>
#include <bluetooth/hci.h>
#include <bluetooth/hci_lib.h>

/* HCIGETDEVLIST is a function-like macro (_IOR), which Swift does not import. */
static const unsigned long CBluetoothGetDeviceList = HCIGETDEVLIST;
